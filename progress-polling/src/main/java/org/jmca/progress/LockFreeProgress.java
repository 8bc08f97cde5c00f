package org.jmca.progress;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlDoorbell;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.Ownership;
import org.jmca.mca.trace.HelperServed;

/**
 * The lock-free asynchronous rendezvous (after MVAPICH's, Kumar et al.): exactly one thread owns
 * progress at any time, and ownership changes hands with one compare-and-set ({@link Ownership}),
 * never a lock on the PML's structures.
 *
 * <ul>
 *   <li>The application thread takes ownership when it enters the library and disarms the
 *       doorbell: while it is inside, peers do not ring and the helper stays asleep.</li>
 *   <li>When it leaves with a receive still posted, it arms the doorbell and gives ownership up;
 *       if a fragment arrived before the bell was armed (its sender did not ring), it rings its
 *       own bell, so that the helper, not the application, deals with it.</li>
 *   <li>A peer that announces a rendezvous rings the armed bell; the helper wakes, takes
 *       ownership, progresses until nothing is left to do (the PML reads the message with RGET
 *       and sends FIN) and gives ownership back. One wake-up per rendezvous.</li>
 *   <li>An application thread that enters while the helper owns progress asks for it back and
 *       spins until the helper has finished its current turn.</li>
 * </ul>
 *
 * The arm/check-arrivals in {@link #exit()} and the peer's announce/check-armed are a Dekker
 * pair, each side a store, a full fence and a load: a rendezvous start is either seen by that
 * check or rings.
 */
final class LockFreeProgress implements AsyncProgress {
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long HELPER_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(5);

    private final Ownership owner = new Ownership();
    private final IntSupplier turn;
    private final HelperThread.Placement placement;
    /** Nesting of the application thread's enter/exit; touched by that thread only. */
    private int depth;
    private BtlDoorbell bell;
    private AsyncSources sources;
    private Thread helper;
    private volatile boolean running;
    private final HelperFailure failure = new HelperFailure();

    // Counters, each written by one thread only.
    private volatile long notifications;
    private volatile long handovers;
    private volatile long applicationWaits;
    private volatile long selfRings;

    /**
     * @param turn one progress turn of the engine, returning its events
     * @param placement the helper's niceness and CPU
     */
    LockFreeProgress(IntSupplier turn, HelperThread.Placement placement) {
        this.turn = turn;
        this.placement = placement;
    }

    @Override
    public void start(AsyncSources sources) {
        this.sources = sources;
        this.bell = sources.doorbell();
        if (bell == null) {
            System.err.println("jmca: warning: progress_polling_async=lockfree, but no selected BTL can wake this"
                    + " process (btl/sm can, where futexes work): rendezvous messages progress only inside MPI calls");
            return;
        }
        running = true;
        int rungBeforeStart = bell.rings(); // read here: a ring before the thread runs must wake it
        helper = HelperThread.start("jmca-async-progress", placement, () -> sleepAndServe(rungBeforeStart));
    }

    @Override
    public void enter() {
        if (depth++ > 0) {
            return;
        }
        if (bell != null) {
            bell.disarm();
        }
        if (owner.acquire()) {
            applicationWaits++;
        }
        if (failure.happened()) {
            depth--;
            owner.release();
            failure.rethrow();
        }
    }

    @Override
    public void exit() {
        if (--depth > 0) {
            return;
        }
        boolean wakeHelper = false;
        if (bell != null && sources.receivesPending().getAsBoolean()) {
            bell.arm();
            wakeHelper = bell.hasArrivals();
        }
        owner.release();
        if (wakeHelper) { // after giving ownership up: a helper woken on this CPU must not find it still taken
            selfRings++;
            bell.ringSelf();
        }
    }

    /**
     * Waits for rings and serves them. A helper with a core of its own polls the bell for
     * {@code pollNanos} after each ring before it sleeps in the kernel: waking a thread that sleeps
     * on an idle core takes that core out of its idle state first, tens of microseconds that vary
     * with the host, where a polled ring is seen within a microsecond.
     */
    private void sleepAndServe(int seen) {
        long lastServed = System.nanoTime();
        while (running) {
            int now = bell.rings();
            boolean slept = false;
            if (now == seen) {
                if (System.nanoTime() - lastServed < placement.pollNanos()) {
                    Thread.onSpinWait();
                    continue;
                }
                bell.await(seen, SLEEP_NANOS);
                slept = true;
                now = bell.rings();
                if (now == seen || !running) {
                    continue;
                }
            }
            // Rings up to now announced fragments already in the rings: the turns below see them.
            seen = now;
            notifications++;
            serve(System.nanoTime(), slept);
            lastServed = System.nanoTime();
        }
    }

    /** Takes ownership and progresses until a turn finds nothing; gives up if the application is inside. */
    private void serve(long woke, boolean slept) {
        HelperServed event = new HelperServed();
        for (int attempt = 1; ; attempt++) {
            if (owner.tryAcquire(Ownership.HELPER)) {
                handovers++;
                long owned = event.isEnabled() ? System.nanoTime() : 0;
                int turns = 0;
                try {
                    while (turn.getAsInt() > 0 && !owner.wanted()) {
                        // until the rendezvous that rang, and whatever came with it, is done,
                        // or the application wants progress back (steady traffic must not starve it)
                        turns++;
                    }
                } catch (RuntimeException e) {
                    failure.record(e); // the application's next call reports it
                    running = false;
                } finally {
                    owner.release();
                }
                record(event, woke, owned, slept, turns);
                return;
            }
            if (!bell.armed()) {
                record(event, woke, 0, slept, 0);
                return; // the application is inside the library and progresses itself
            }
            // The application is leaving the library. Park rather than spin or yield: a helper
            // that runs under SCHED_FIFO on the application's CPU would otherwise never let it
            // finish leaving (yield gives the CPU to real-time threads only).
            if (attempt < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(HELPER_BACKOFF_NANOS);
            }
        }
    }

    private static void record(HelperServed event, long woke, long owned, boolean slept, int turns) {
        if (event.isEnabled()) {
            event.doneNanos = System.nanoTime();
            event.wokeNanos = woke;
            event.ownedNanos = owned;
            event.slept = slept;
            event.turns = turns;
            event.commit();
        }
    }

    @Override
    public boolean onHelperThread() {
        return Thread.currentThread() == helper;
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return List.of(PollingProgressComponent.NOTIFICATIONS.readBy(() -> notifications),
                PollingProgressComponent.HANDOVERS.readBy(() -> handovers),
                PollingProgressComponent.APPLICATION_WAITS.readBy(() -> applicationWaits),
                PollingProgressComponent.SELF_RINGS.readBy(() -> selfRings));
    }

    @Override
    public void stop() {
        if (helper == null) {
            return;
        }
        running = false;
        bell.ringSelf();
        HelperThread.join(helper);
    }
}
