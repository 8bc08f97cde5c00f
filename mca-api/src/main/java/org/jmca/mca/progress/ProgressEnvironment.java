package org.jmca.mca.progress;

/**
 * What an engine needs to know about the process's surroundings to pick a way of waiting.
 *
 * @param localProcesses  processes of the job on this host
 * @param availableCores  cores this process may run on
 */
public record ProgressEnvironment(int localProcesses, int availableCores) {
    public ProgressEnvironment {
        if (localProcesses < 1 || availableCores < 1) {
            throw new IllegalArgumentException("localProcesses=" + localProcesses + " and availableCores="
                    + availableCores + " must both be at least 1");
        }
    }

    /** True when the job has more processes on this host than it has cores. */
    public boolean oversubscribed() {
        return localProcesses > availableCores;
    }
}
