package org.jmca.progress;

import java.util.concurrent.TimeUnit;
import org.jmca.mca.os.ThreadPlacement;

/**
 * Makes the helper thread of asynchronous progress: a daemon platform thread (it sleeps in the
 * kernel, which a virtual thread would do pinned to its carrier), with its own niceness and CPU
 * when asked ({@link ThreadPlacement}, on the helper alone).
 */
final class HelperThread {
    /**
     * Where the helper runs.
     *
     * @param nice     its niceness, -20..19; 0 keeps the process's
     * @param cpus     the CPUs it may run on; none keeps the affinity of the thread that starts it
     * @param realtime run under SCHED_FIFO (priority 1), so that a wake-up preempts any ordinary thread
     * @param pollNanos how long the helper polls its doorbell after serving a ring before it sleeps
     *                  in the kernel; more than 0 only where it has a core of its own
     */
    record Placement(int nice, int[] cpus, boolean realtime, long pollNanos) {
        static final Placement INHERITED = new Placement(0, new int[0], false, 0);
    }

    private HelperThread() {
    }

    /**
     * A started daemon thread that runs {@code body} once placed (a placement the kernel refuses
     * is reported on standard error, and the thread runs where the process does).
     */
    static Thread start(String name, Placement placement, Runnable body) {
        Thread thread = new Thread(() -> {
            String failure = ThreadPlacement.place(placement.nice(), placement.cpus(), placement.realtime());
            if (failure != null) {
                System.err.println("jmca: warning: the asynchronous progress thread " + failure);
            }
            body.run();
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits up to 5 seconds for a helper that was told to stop. */
    static void join(Thread helper) {
        try {
            helper.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
