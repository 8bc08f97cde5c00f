package org.jmca.mca.progress;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.jmca.mca.PerformanceVariable;

/**
 * The progress engine of a process, as {@code opal_progress} is in Open MPI: registered callbacks
 * run on every turn (high priority) or on every n-th turn (low priority), and waiting for a
 * condition alternates turns with the engine's wait strategy (spin, yield or park).
 *
 * <p>Callbacks may be registered and removed from any thread; {@link #progress()} and
 * {@link #waitUntil} are called by the thread that owns progress.
 *
 * <p>Asynchronous progress: an engine may run a helper thread that progresses communication
 * while the application computes. The application thread then brackets every MPI call with
 * {@link #enter()} and {@link #exit()}, which hand the ownership of progress between it and the
 * helper. Without asynchronous progress both are no-ops and the calling thread always owns it.
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

    /**
     * The application thread enters the library: from here until the matching {@link #exit()} it
     * owns progress (waiting for a helper to hand it back). Calls nest.
     */
    default void enter() {
    }

    /** The application thread leaves the library (the outermost exit hands progress over). */
    default void exit() {
    }

    /** True if a helper thread may progress while the application computes (then MPI calls must enter and exit). */
    default boolean isAsynchronous() {
        return false;
    }

    /**
     * Starts asynchronous progress, if this engine is configured for it, once the PML and the
     * transports exist. Called once, by the application thread.
     */
    default void startAsync(AsyncSources sources) {
    }

    /** True on the engine's helper thread while it runs progress (the application is computing). */
    default boolean onHelperThread() {
        return false;
    }

    /** The engine's counters. */
    default List<PerformanceVariable> performanceVariables() {
        return List.of();
    }

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
