package org.jmca.progress;

import java.util.Arrays;

/**
 * Where a process's asynchronous-progress helper runs. Ranks bound to cores take the first CPUs
 * the job may use, one per local rank (as {@code --bind-to core} places them); the CPUs after
 * those are spare. By default the helper of local rank {@code r} takes the {@code r}-th spare CPU
 * (cycling when there are fewer spare CPUs than ranks); with none spare it may run on any CPU of
 * the process (not only on the one its rank's thread, which makes it, is bound to). A CPU list the
 * user names is used as given.
 *
 * @param cpus  the CPUs the helper may run on
 * @param alone true if the helper has one CPU on which neither a rank nor another helper of this
 *              host is placed
 */
record HelperCore(int[] cpus, boolean alone) {

    /**
     * @param allowed        the CPUs the process may run on, in order, before its rank bound a thread
     * @param localProcesses the job's processes on this host
     * @param localRank      this process's index among them
     * @param named          the CPUs the user named for helpers ({@code progress_polling_async_cpus}); empty: choose
     */
    static HelperCore choose(int[] allowed, int localProcesses, int localRank, int[] named) {
        int[] helpers = named;
        if (helpers.length == 0) {
            if (allowed.length <= localProcesses) {
                return new HelperCore(allowed, false); // no spare CPU: it takes its time from the ranks
            }
            helpers = Arrays.copyOfRange(allowed, localProcesses, allowed.length);
        }
        int cpu = helpers[localRank % helpers.length];
        int sharing = 0;
        for (int r = 0; r < localProcesses; r++) {
            if (allowed.length > 0 && allowed[r % allowed.length] == cpu) {
                return new HelperCore(new int[] {cpu}, false); // a rank bound to cores runs there
            }
            if (helpers[r % helpers.length] == cpu) {
                sharing++;
            }
        }
        return new HelperCore(new int[] {cpu}, sharing == 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HelperCore other && Arrays.equals(cpus, other.cpus) && alone == other.alone;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(cpus) + Boolean.hashCode(alone);
    }

    @Override
    public String toString() {
        return "HelperCore" + Arrays.toString(cpus) + (alone ? " alone" : "");
    }
}
