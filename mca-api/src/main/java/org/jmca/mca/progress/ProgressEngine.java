package org.jmca.mca.progress;

import java.util.function.BooleanSupplier;

/**
 * The progress engine of a process, as {@code opal_progress} is in Open MPI: registered callbacks
 * run on every turn (high priority) or on every n-th turn (low priority), and waiting for a
 * condition alternates turns with the engine's wait strategy (spin, yield or park).
 *
 * <p>Callbacks may be registered and removed from any thread; {@link #progress()} and
 * {@link #waitUntil} are called by the thread that owns progress.
 */
public interface ProgressEngine extends AutoCloseable {

    /** How often a callback runs. */
    enum Priority {
        /** Every turn: transports with latency-critical traffic. */
        HIGH,
        /** Every n-th turn: slow or rarely busy sources. */
        LOW
    }

    /** Adds a callback; closing the returned handle removes it. */
    Registration register(ProgressCallback callback, Priority priority);

    /** Runs one turn and returns how many events the callbacks handled. */
    int progress();

    /** Runs turns until {@code done} is true, idling between empty turns by the wait strategy. */
    void waitUntil(BooleanSupplier done);

    /** The name of the wait strategy in use ("spin", "spin_yield", "spin_park"). */
    String waitStrategy();

    @Override
    void close();

    /** A registered callback; {@link #close()} removes it. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
