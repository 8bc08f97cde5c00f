package org.jmca.rte;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;

/**
 * How a process learns about its job and exchanges addresses with the other processes: through
 * jmpirun's embedded server ({@link EmbeddedWireUp}), through a PMIx server under mpirun, prterun
 * or srun ({@link PmixWireUp}), or alone as a singleton ({@link SingletonWireUp}).
 *
 * <p>Called by the thread that initializes MPI.
 */
public interface WireUp extends AutoCloseable {

    JobInfo job();

    /**
     * Publishes this process's values and waits until every process of the job has published
     * (a fence); returns every process's record, indexed by rank.
     *
     * @throws WireUpException after the launcher's timeout, or if the launcher is gone
     */
    List<PeerRecord> exchange(Map<String, String> values);

    /** Tells the launcher that this process finalized MPI (exiting afterwards is not a failure). */
    void finalized();

    /** Tells the launcher that this process aborts the job with {@code code}; the launcher stops the others. */
    void abort(int code, String message);

    @Override
    void close();

    /**
     * Null for a rank that is a process; for a rank that is a thread of this JVM, the map its
     * job's ranks share ({@code BtlEnvironment.threadJob}).
     */
    default ConcurrentMap<String, Object> threadJob() {
        return null;
    }

    /**
     * Throws if the job is ending (another rank failed, it was cancelled); a rank that is a thread
     * calls it as it waits, since nobody can kill it as jmpirun kills a process.
     *
     * @throws WireUpException saying why the job ends
     */
    default void checkJob() {
    }

    /**
     * The wire-up for a rank with this environment: a thread job's if it is a thread of one,
     * jmpirun's if jmpirun started the process, PMIx if a PMIx server did, else a singleton.
     */
    static WireUp detect(Map<String, String> env) {
        if (env.containsKey(ThreadWireUp.ENV_JOB)) {
            return ThreadWireUp.fromEnvironment(env);
        }
        if (env.containsKey(EmbeddedWireUp.ENV_SERVER)) {
            return EmbeddedWireUp.fromEnvironment(env);
        }
        return PmixWireUp.present(env) ? PmixWireUp.fromEnvironment(env) : new SingletonWireUp();
    }

    /** Which wire-up a process with this environment uses, and why, in words (for jmca-info). */
    static String describe(Map<String, String> env) {
        if (env.containsKey(ThreadWireUp.ENV_JOB)) {
            return "thread: a rank of thread job " + env.get(ThreadWireUp.ENV_JOB) + " in this JVM";
        }
        if (env.containsKey(EmbeddedWireUp.ENV_SERVER)) {
            return "embedded: jmpirun started this process (" + EmbeddedWireUp.ENV_SERVER + "="
                    + env.get(EmbeddedWireUp.ENV_SERVER) + ")";
        }
        if (PmixWireUp.present(env)) {
            return "pmix: a PMIx server started this process (PMIX_NAMESPACE=" + env.get("PMIX_NAMESPACE")
                    + ", PMIX_RANK=" + env.get("PMIX_RANK") + "); " + PmixWireUp.libraryStatus(env);
        }
        return "singleton: no launcher started this process (neither " + EmbeddedWireUp.ENV_SERVER
                + " nor PMIX_NAMESPACE is set), so it is a job of one";
    }
}
