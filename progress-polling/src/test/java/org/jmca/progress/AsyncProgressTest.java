package org.jmca.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AsyncProgressTest {

    /** A progress turn that fails if two threads run it at once, and counts who ran it. */
    private static final class ExclusiveTurn {
        final AtomicBoolean inside = new AtomicBoolean();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicLong helperTurns = new AtomicLong();
        volatile AsyncProgress owner;

        /** A lock-free progress whose turns are this one's, not yet started. */
        LockFreeProgress lockFree() {
            LockFreeProgress progress = new LockFreeProgress(this::turn, HelperThread.Placement.INHERITED);
            owner = progress;
            return progress;
        }
        /** Events the next turns report (the helper loops while a turn has events). */
        final AtomicInteger pendingEvents = new AtomicInteger();

        int turn() {
            if (!inside.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            try {
                if (owner != null && owner.onHelperThread()) {
                    helperTurns.incrementAndGet();
                }
                Thread.onSpinWait();
                return pendingEvents.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 1 : 0;
            } finally {
                inside.set(false);
            }
        }
    }

    private static long counter(AsyncProgress progress, String name) {
        return progress.performanceVariables().stream().filter(v -> v.name().equals(name))
                .mapToLong(PerformanceVariable::read).findFirst().orElseThrow();
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theLockFreeHelperAndTheApplicationNeverRunProgressAtOnce() throws Exception {
        ExclusiveTurn turn = new ExclusiveTurn();
        InMemoryDoorbell bell = new InMemoryDoorbell();
        LockFreeProgress progress = turn.lockFree();
        progress.start(new AsyncSources(bell, () -> true));
        AtomicBoolean stop = new AtomicBoolean();
        Thread peer = Thread.ofPlatform().start(() -> {
            while (!stop.get()) {
                turn.pendingEvents.incrementAndGet();
                bell.ringIfArmed();
                Thread.onSpinWait();
            }
        });
        long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < end) {
            progress.enter();
            progress.enter(); // nested calls, as an MPI call inside an MPI call
            turn.turn();
            progress.exit();
            turn.turn();
            progress.exit();
            for (int i = 0; i < 1000; i++) {
                Thread.onSpinWait(); // "computing", outside the library
            }
        }
        stop.set(true);
        peer.join();
        progress.stop();
        assertThat(turn.overlaps.get()).as("turns run by two threads at once").isZero();
        assertThat(turn.helperTurns.get()).as("turns the helper ran while the application computed").isPositive();
        assertThat(counter(progress, "progress_polling_async_handovers")).isPositive();
        assertThat(counter(progress, "progress_polling_async_notifications"))
                .isGreaterThanOrEqualTo(counter(progress, "progress_polling_async_handovers"));
    }

    /**
     * A helper with a core of its own polls the bell between rings instead of sleeping in the
     * kernel; one without sleeps after each ring.
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHelperThatPollsServesRingsWithoutSleepingAndOneThatDoesNotSleepsBetweenThem() throws Exception {
        for (long pollNanos : new long[] {Duration.ofSeconds(20).toNanos(), 0}) {
            ExclusiveTurn turn = new ExclusiveTurn();
            InMemoryDoorbell bell = new InMemoryDoorbell();
            LockFreeProgress progress = new LockFreeProgress(turn::turn, new HelperThread.Placement(0, new int[0], false,
                    pollNanos));
            turn.owner = progress;
            progress.start(new AsyncSources(bell, () -> true));
            int rings = 50;
            for (int i = 0; i < rings; i++) {
                progress.enter();
                progress.exit();
                turn.pendingEvents.set(1);
                assertThat(bell.ringIfArmed()).isTrue();
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (turn.pendingEvents.get() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(0, 100_000);
                }
                assertThat(turn.pendingEvents.get()).as("ring %d served", i).isZero();
            }
            progress.stop();
            if (pollNanos > 0) {
                assertThat(bell.awaits.get()).as("sleeps of a polling helper").isZero();
            } else {
                assertThat(bell.awaits.get()).as("sleeps of a helper that does not poll").isGreaterThanOrEqualTo(rings);
            }
        }
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void withNoReceivePendingTheBellIsNeverArmedAndTheHelperNeverRuns() throws Exception {
        ExclusiveTurn turn = new ExclusiveTurn();
        InMemoryDoorbell bell = new InMemoryDoorbell();
        LockFreeProgress progress = turn.lockFree();
        progress.start(new AsyncSources(bell, () -> false));
        int rang = 0;
        for (int i = 0; i < 10_000; i++) {
            progress.enter();
            turn.turn();
            progress.exit();
            rang += bell.ringIfArmed() ? 1 : 0;
        }
        progress.stop();
        assertThat(rang).isZero();
        assertThat(turn.helperTurns.get()).isZero();
        assertThat(counter(progress, "progress_polling_async_notifications")).isZero();
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void whatArrivedBeforeTheBellWasArmedWakesTheHelperFromTheApplicationsExit() throws Exception {
        ExclusiveTurn turn = new ExclusiveTurn();
        InMemoryDoorbell bell = new InMemoryDoorbell();
        LockFreeProgress progress = turn.lockFree();
        // A fragment waits that nobody rang for (its sender found the bell disarmed).
        bell.arrivals(() -> turn.pendingEvents.get() > 0);
        turn.pendingEvents.set(1);
        progress.start(new AsyncSources(bell, () -> true));
        progress.enter();
        progress.exit();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (turn.pendingEvents.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        progress.stop();
        assertThat(turn.pendingEvents.get()).as("events the helper did not handle").isZero();
        assertThat(turn.helperTurns.get()).isPositive();
        assertThat(counter(progress, "progress_polling_async_self_rings")).isEqualTo(1);
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theLockBasedHelperPollsAndTheApplicationTakesTheLock() throws Exception {
        ExclusiveTurn turn = new ExclusiveTurn();
        LockBasedProgress progress = new LockBasedProgress(turn::turn, HelperThread.Placement.INHERITED);
        turn.owner = progress;
        progress.start(new AsyncSources(null, () -> false));
        long end = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < end) {
            turn.pendingEvents.incrementAndGet();
            progress.enter();
            turn.turn();
            progress.exit();
        }
        progress.stop();
        assertThat(turn.overlaps.get()).isZero();
        assertThat(turn.helperTurns.get()).isPositive();
        assertThat(counter(progress, "progress_polling_async_helper_turns")).isPositive();
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFailureOnTheHelperThreadFailsTheApplicationsNextCall() throws Exception {
        InMemoryDoorbell bell = new InMemoryDoorbell();
        AtomicBoolean failed = new AtomicBoolean();
        LockFreeProgress lockFree = new LockFreeProgress(() -> {
            failed.set(true);
            throw new McaException("peer 3 vanished");
        }, HelperThread.Placement.INHERITED);
        lockFree.start(new AsyncSources(bell, () -> true));
        lockFree.enter();
        lockFree.exit();
        bell.ringIfArmed();
        while (!failed.get()) {
            Thread.sleep(1);
        }
        assertThat(nextCallsFailure(lockFree)).isInstanceOf(McaException.class)
                .hasMessageContaining("asynchronous progress stopped: peer 3 vanished");
        assertThatThrownBy(lockFree::enter).as("every later call too").hasMessageContaining("peer 3 vanished");
        lockFree.stop();

        LockBasedProgress lockBased = new LockBasedProgress(() -> {
            throw new McaException("peer 2 vanished");
        }, HelperThread.Placement.INHERITED);
        lockBased.start(new AsyncSources(null, () -> false));
        Throwable thrown = nextCallsFailure(lockBased);
        lockBased.stop();
        assertThat(thrown).hasMessageContaining("peer 2 vanished");
    }

    /**
     * Enters and exits until a call fails, as the application's next MPI calls would; the helper
     * records its failure just after its turn throws. Null if no call failed within 10 s.
     */
    private static Throwable nextCallsFailure(AsyncProgress progress) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                progress.enter();
                progress.exit();
            } catch (McaException e) {
                return e;
            }
            Thread.sleep(1);
        }
        return null;
    }
}
