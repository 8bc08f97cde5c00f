package org.jmca.mca.progress;

import org.jmca.mca.os.ThreadPlacement;

/**
 * What an engine needs to know about the process's surroundings to pick a way of waiting.
 *
 * @param localProcesses  processes of the job on this host
 * @param availableCores  cores this process may run on
 * @param localRank       this process's index among the processes on this host
 * @param cpus            the CPUs the process may run on, as they were before its rank bound its
 *                        thread to one of them ({@code --bind-to core} binds the first
 *                        {@code localProcesses} of them, one per rank)
 */
public record ProgressEnvironment(int localProcesses, int availableCores, int localRank, int[] cpus) {
    public ProgressEnvironment {
        cpus = cpus.clone();
        if (localProcesses < 1 || availableCores < 1) {
            throw new IllegalArgumentException("localProcesses=" + localProcesses + " and availableCores="
                    + availableCores + " must both be at least 1");
        }
        if (localRank < 0 || localRank >= localProcesses) {
            throw new IllegalArgumentException("localRank=" + localRank + " must be in 0.." + (localProcesses - 1));
        }
    }

    /** A process whose threads are not bound yet. */
    public ProgressEnvironment(int localProcesses, int availableCores, int localRank) {
        this(localProcesses, availableCores, localRank, ThreadPlacement.allowedCpus());
    }

    /** The first process on its host. */
    public ProgressEnvironment(int localProcesses, int availableCores) {
        this(localProcesses, availableCores, 0);
    }

    @Override
    public int[] cpus() {
        return cpus.clone();
    }

    /** True when the job has more processes on this host than it has cores. */
    public boolean oversubscribed() {
        return localProcesses > availableCores;
    }
}
