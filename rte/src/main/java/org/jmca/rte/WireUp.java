package org.jmca.rte;

import java.util.List;
import java.util.Map;

/**
 * How a process learns about its job and exchanges addresses with the other processes: through
 * jmpirun's embedded server ({@link EmbeddedWireUp}), alone as a singleton
 * ({@link SingletonWireUp}), and later through PMIx under mpirun, prterun or srun.
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

    /** The wire-up for this process: jmpirun's if it started the process, else a singleton. */
    static WireUp detect() {
        Map<String, String> env = System.getenv();
        return env.containsKey(EmbeddedWireUp.ENV_SERVER) ? EmbeddedWireUp.fromEnvironment(env) : new SingletonWireUp();
    }
}
