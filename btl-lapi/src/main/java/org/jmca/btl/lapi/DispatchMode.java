package org.jmca.btl.lapi;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.mca.PerformanceVariable;

/**
 * How a context's dispatcher is shared between the calls and LAPI's own threads (its
 * {@link org.jmca.common.lapi.LapiMode}): who may run it when, how a call waits, and the threads
 * LAPI starts. Every mode has the retransmission/timeout tick; {@code INTERRUPT} and
 * {@code LOCKFREE} also have a notification thread, which sleeps on the task's doorbell until a
 * packet arrives (senders ring only an armed bell, and disarm it as they ring, so a burst of
 * arrivals wakes it once: coalesced interrupts).
 */
abstract sealed class DispatchMode permits GlobalLockMode, LockFreeMode {
    private static final int SPINS_BEFORE_YIELD = 200;

    final LapiTask task;
    Dispatcher dispatcher;
    private FutexDoorbell bell;
    private final long tickNanos;
    private final long timeoutNanos;
    private Thread notification;
    private Thread ticker;
    private volatile boolean running;
    /** Counters for the study: wake-ups of the notification thread, and those that found the dispatcher taken. */
    volatile long interrupts;
    volatile long declined;

    DispatchMode(LapiTask task, LapiSettings settings) {
        this.task = task;
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(settings.tickMillis());
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(settings.timeoutSeconds());
    }

    /** A call's visit to the dispatcher, after it queued its work ({@code LAPI_Probe} is one too). */
    abstract void call();

    /** Waits, progressing as the mode says, until {@code done} holds or the task failed. */
    abstract void waitUntil(BooleanSupplier done);

    /** The tick's visit: progress, and the timeout and peer checks. */
    abstract void tick();

    /**
     * The notification thread's visit after a wake-up; false if it found the dispatcher taken by a
     * call (which will dispatch what arrived: the thread goes back to sleep until the next arrival).
     */
    abstract boolean serveNotification();

    /** Runs {@code body} holding the dispatcher, so that nothing else dispatches meanwhile. */
    abstract void exclusively(Runnable body);

    /** Whether the mode runs a notification thread. */
    abstract boolean notifies();

    /** Runs an active message's completion handler and what follows it. */
    void runCompletion(Runnable completion) {
        completion.run();
    }

    /** An answer made outside the dispatcher (a completion handler's acknowledgement) was queued. */
    void answerQueued() {
    }

    /** One dispatcher pass with the checks of the tick. */
    final void tickPass() {
        dispatcher.dispatch();
        dispatcher.check(timeoutNanos);
    }

    /** Spins, then yields: a waiting call between its visits to the dispatcher. */
    static void idle(int emptyTurns) {
        if (emptyTurns < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    void start(Dispatcher dispatcher, FutexDoorbell bell) {
        this.dispatcher = dispatcher;
        this.bell = bell;
        running = true;
        ticker = Thread.ofPlatform().daemon().name("lapi-tick-" + task.task()).start(this::tickLoop);
        if (notifies()) {
            notification = Thread.ofPlatform().daemon().name("lapi-notification-" + task.task())
                    .start(this::notificationLoop);
        }
    }

    private void tickLoop() {
        while (running) {
            try {
                Thread.sleep(Duration.ofNanos(tickNanos));
            } catch (InterruptedException e) {
                return;
            }
            if (running) {
                try {
                    tick();
                } catch (RuntimeException e) {
                    task.fail("btl/lapi: task " + task.task() + ": the tick failed: " + e);
                }
            }
        }
    }

    /** True while the mode wants no interrupts (a call is polling the dispatcher itself). */
    boolean interruptsOff() {
        return false;
    }

    private void notificationLoop() {
        boolean declinedLast = false;
        while (running) {
            int seen = bell.rings();
            // What arrived before the bell was armed rang nobody: look, unless a call holds the
            // dispatcher and will see it (then wait for the next arrival, as LAPI's thread did).
            boolean look = false;
            if (!interruptsOff()) {
                bell.arm();
                look = !declinedLast && dispatcher.hasArrivals();
            }
            if (!look) {
                bell.await(seen, tickNanos);
            }
            if (!running) {
                return;
            }
            if (interruptsOff()) {
                continue; // a call polls: it takes what arrived
            }
            bell.disarm();
            interrupts++;
            try {
                declinedLast = !serveNotification();
            } catch (RuntimeException e) {
                task.fail("btl/lapi: task " + task.task() + ": the notification thread failed: " + e);
            }
        }
    }

    /** Wakes the task's own notification thread (its bell rung whether armed or not). */
    final void wakeNotification() {
        bell.ringSelf();
    }

    /** Stops senders from ringing: a call polls the dispatcher itself meanwhile. */
    final void disarmNotification() {
        bell.disarm();
    }

    /**
     * Lets senders ring again, after a call polled the dispatcher; what arrived in between rang
     * nobody, so the notification thread is woken for it (arm, full fence, look: a Dekker pair
     * with the senders' publish, full fence, look at the bell).
     */
    final void armNotification() {
        bell.arm();
        if (dispatcher.hasArrivals()) {
            bell.ringSelf();
        }
    }

    /** Stops the mode's threads and waits for them. */
    void stop() {
        running = false;
        if (ticker != null) {
            ticker.interrupt();
            join(ticker);
        }
        if (notification != null) {
            bell.ringSelf();
            join(notification);
        }
    }

    static void join(Thread thread) {
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    List<PerformanceVariable> performanceVariables() {
        return List.of(LapiBtlComponent.INTERRUPTS.readBy(() -> interrupts),
                LapiBtlComponent.DECLINED.readBy(() -> declined));
    }
}
