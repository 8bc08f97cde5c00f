/**
 * The progress framework: who drives communication forward, and how a thread waits.
 *
 * <p>Single-select: one {@link org.jmca.mca.progress.ProgressComponent} makes the process's
 * {@link org.jmca.mca.progress.ProgressEngine}. Transports and collective schedules register
 * {@link org.jmca.mca.progress.ProgressCallback}s with it; blocking MPI calls wait through
 * {@link org.jmca.mca.progress.ProgressEngine#waitUntil}. Waiting spins while the host has a core
 * per process (a polled cache line crosses cores in about 0.15 µs, waking a parked thread costs
 * about 30 µs) and yields when it is oversubscribed.
 */
package org.jmca.mca.progress;
