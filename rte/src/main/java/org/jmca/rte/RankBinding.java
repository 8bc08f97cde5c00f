package org.jmca.rte;

import java.util.Map;
import org.jmca.mca.os.ThreadPlacement;

/**
 * A rank's binding, done by the rank itself in MPI.Init: the thread that calls it - the one that
 * runs the rank and busy-polls - is bound to one CPU of the host ({@link ThreadPlacement}), the
 * local rank's place among the CPUs the process may use, as Open MPI's {@code --bind-to core}
 * places ranks. The rest of the JVM is left alone: its JIT compiler and garbage-collector threads
 * run on any CPU, where binding the whole JVM (taskset) made them share the one CPU with the rank
 * that spins on it (4 bound ranks of 16 cores: 308-340 us per 8-byte allreduce, against 4.6
 * unbound).
 */
public final class RankBinding {
    /** What jmpirun asks of its ranks: "core", or nothing. */
    public static final String ENV_BIND_TO = "JMCA_BIND_TO";
    /** Set when the ranks are to say where they run (jmpirun --report-bindings). */
    public static final String ENV_REPORT = "JMCA_REPORT_BINDINGS";

    private RankBinding() {
    }

    /**
     * Binds the calling thread as {@code env} asks. Returns the line to print on standard error:
     * the report when the launcher asked for reports, a warning when a binding asked for failed,
     * else null.
     */
    public static String apply(Map<String, String> env, JobInfo job) {
        String failure = null;
        String outcome = "not bound";
        if (env.getOrDefault(ENV_BIND_TO, "none").equals("core")) {
            int[] cpus = ThreadPlacement.allowedCpus();
            int cpu = cpus[job.localRank() % cpus.length];
            failure = ThreadPlacement.bind(cpu);
            outcome = failure == null ? "bound to CPU " + cpu + " (the JVM's JIT compiler and GC threads are not bound)"
                    : failure;
        }
        String where = "rank " + job.rank() + " on host " + job.hostname() + " (pid " + ProcessHandle.current().pid()
                + "): thread \"" + Thread.currentThread().getName() + "\" " + outcome;
        if (env.containsKey(ENV_REPORT)) {
            return "jmca: " + where;
        }
        return failure != null ? "jmca: warning: " + where : null;
    }
}
