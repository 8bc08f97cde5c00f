package org.jmca.progress;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.jmca.mca.progress.ProgressEnvironment;

/**
 * How a thread waits between progress turns that found nothing to do.
 *
 * <p>Measured on 2-core machines: a busy-polled cache line crosses cores in about 0.15 µs, while
 * waking a parked thread costs about 30 µs. So {@link #AUTO} spins while every process of the
 * job on this host has a core, and spins then yields (never parks) when the host is
 * oversubscribed, as Open MPI's {@code mpi_yield_when_idle} does.
 */
public enum WaitStrategy {
    /** {@link #SPIN} with a core per local process, else {@link #SPIN_YIELD}. */
    AUTO,
    /** Busy-poll: the lowest latency, one core fully used per waiting thread. */
    SPIN,
    /** Spin a while, then yield the core on each empty turn. */
    SPIN_YIELD,
    /** Spin, then yield, then park with growing periods: frees the core, costs wake-up latency. */
    SPIN_PARK;

    /** The concrete strategy for an environment: {@link #AUTO} resolved, the others as they are. */
    public WaitStrategy resolve(ProgressEnvironment environment) {
        if (this != AUTO) {
            return this;
        }
        return environment.oversubscribed() ? SPIN_YIELD : SPIN;
    }

    /**
     * Agrona's idle strategy for this way of waiting; {@link #AUTO} must be resolved first.
     *
     * @param spins      empty turns spent spinning before yielding
     * @param yields     empty turns spent yielding before parking ({@link #SPIN_PARK} only)
     * @param minParkNs  first park period
     * @param maxParkNs  longest park period
     */
    IdleStrategy idleStrategy(long spins, long yields, long minParkNs, long maxParkNs) {
        return switch (this) {
            case AUTO -> throw new IllegalStateException("resolve AUTO before making its idle strategy");
            case SPIN -> new NoOpIdleStrategy();
            case SPIN_YIELD -> new BackoffIdleStrategy(spins, Long.MAX_VALUE, minParkNs, maxParkNs);
            case SPIN_PARK -> new BackoffIdleStrategy(spins, yields, minParkNs, maxParkNs);
        };
    }
}
