package org.jmca.mca.progress;

/**
 * What an engine needs to know about the process's surroundings to pick a way of waiting.
 *
 * @param localProcesses  processes of the job on this host
 * @param availableCores  cores this process may run on
 * @param localRank       this process's index among the processes on this host
 */
public record ProgressEnvironment(int localProcesses, int availableCores, int localRank) {
    public ProgressEnvironment {
        if (localProcesses < 1 || availableCores < 1) {
            throw new IllegalArgumentException("localProcesses=" + localProcesses + " and availableCores="
                    + availableCores + " must both be at least 1");
        }
        if (localRank < 0 || localRank >= localProcesses) {
            throw new IllegalArgumentException("localRank=" + localRank + " must be in 0.." + (localProcesses - 1));
        }
    }

    /** The first process on its host. */
    public ProgressEnvironment(int localProcesses, int availableCores) {
        this(localProcesses, availableCores, 0);
    }

    /** True when the job has more processes on this host than it has cores. */
    public boolean oversubscribed() {
        return localProcesses > availableCores;
    }
}
