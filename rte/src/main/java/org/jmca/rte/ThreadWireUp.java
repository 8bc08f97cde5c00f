package org.jmca.rte;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The wire-up of a rank that is a thread of this JVM: its job ({@code org.jmca.rte.launcher.ThreadJob})
 * is found by the id in the rank's environment, and the exchange is a fence among the job's threads.
 */
public final class ThreadWireUp implements WireUp {
    /** The rank's job: set in the environment a thread job gives each rank (the rest as jmpirun sets it). */
    public static final String ENV_JOB = "JMCA_THREAD_JOB";

    /** What a thread job does for its ranks' wire-ups. */
    public interface Job {
        /** A fence: publishes {@code rank}'s values and returns every rank's, indexed by rank. */
        List<PeerRecord> exchange(int rank, String hostname, Map<String, String> values);

        void finalized(int rank);

        void abort(int rank, int code, String message);

        /** Null while the job runs; why it is ending once it is. */
        String ending();

        /** The map the job's components share ({@code BtlEnvironment.threadJob}). */
        ConcurrentMap<String, Object> shared();
    }

    private static final Map<String, Job> JOBS = new ConcurrentHashMap<>();

    private final JobInfo job;
    private final Job hub;

    private ThreadWireUp(JobInfo job, Job hub) {
        this.job = job;
        this.hub = hub;
    }

    /** Makes job {@code id}'s ranks find it, until {@link #unregister}. */
    public static void register(String id, Job job) {
        JOBS.put(id, job);
    }

    public static void unregister(String id) {
        JOBS.remove(id);
    }

    static ThreadWireUp fromEnvironment(Map<String, String> env) {
        String id = env.get(ENV_JOB);
        Job hub = JOBS.get(id);
        if (hub == null) {
            throw new WireUpException(ENV_JOB + "=" + id + " names no thread job of this JVM (it has ended)");
        }
        int rank = Integer.parseInt(env.get(EmbeddedWireUp.ENV_RANK));
        int size = Integer.parseInt(env.get(EmbeddedWireUp.ENV_SIZE));
        String session = env.get(EmbeddedWireUp.ENV_SESSION_DIR);
        return new ThreadWireUp(new JobInfo(rank, size, size, rank, env.get(EmbeddedWireUp.ENV_JOB_ID),
                HexFormat.of().parseHex(env.get(EmbeddedWireUp.ENV_JOB_KEY)), Hostname.local(),
                session == null ? null : java.nio.file.Path.of(session)), hub);
    }

    @Override
    public JobInfo job() {
        return job;
    }

    @Override
    public List<PeerRecord> exchange(Map<String, String> values) {
        return hub.exchange(job.rank(), job.hostname(), values);
    }

    @Override
    public void finalized() {
        hub.finalized(job.rank());
    }

    @Override
    public void abort(int code, String message) {
        hub.abort(job.rank(), code, message);
    }

    @Override
    public ConcurrentMap<String, Object> threadJob() {
        return hub.shared();
    }

    @Override
    public void checkJob() {
        String ending = hub.ending();
        if (ending != null) {
            throw new WireUpException("rank " + job.rank() + ": the job is ending: " + ending);
        }
    }

    @Override
    public void close() {
    }
}
