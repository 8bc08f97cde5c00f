package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A communicator as the coll modules see it: its ranks, and messages on its collective context
 * (context + 1) with negative tags, one tag per call so non-blocking collectives in flight
 * never mix. On an intercommunicator, messages go to and come from the other group.
 */
public final class CollPort implements CollCommunicator {
    private static final int FIRST_TAG = -1000;
    private static final int TAG_RANGE = 1 << 28;

    private final Communicator comm;
    private final JobRuntime runtime;
    private final Map<String, String> hints;
    private final int verbosity;
    /** Set while MPI.Init's warm-up runs: its thousands of calls are not the application's to report. */
    private boolean muted;
    private int calls;

    CollPort(Communicator comm, JobRuntime runtime, Map<String, String> hints) {
        this.comm = comm;
        this.runtime = runtime;
        this.hints = Map.copyOf(hints);
        this.verbosity = runtime.collVerbosity;
    }

    public void mute(boolean on) {
        muted = on;
    }

    /** The tag of the next collective call; every rank counts its calls alike. */
    public int nextTag() {
        return FIRST_TAG - (calls++ % TAG_RANGE);
    }

    /** Tags count down from FIRST_TAG and wrap after TAG_RANGE calls; "after" is within half of it. */
    @Override
    public boolean drawnAfter(int tag, int earlier) {
        int calls = Math.floorMod((FIRST_TAG - tag) - (FIRST_TAG - earlier), TAG_RANGE);
        return calls > 0 && calls < TAG_RANGE / 2;
    }

    @Override
    public boolean spansJobs() {
        for (int jobRank : comm.jobRanks) {
            if (jobRank >= runtime.job.size()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Path sessionDirectory() {
        return runtime.job.sessionDirectory();
    }

    @Override
    public ConcurrentMap<String, Object> threadJob() {
        return runtime.wireUp.threadJob();
    }

    @Override
    public int rank() {
        return comm.rank;
    }

    @Override
    public int size() {
        return comm.size();
    }

    @Override
    public boolean isInter() {
        return comm.inter();
    }

    @Override
    public int remoteSize() {
        return comm.peers.length;
    }

    @Override
    public String name() {
        return comm.toString();
    }

    @Override
    public int jobRank(int rank) {
        return comm.jobRanks[rank];
    }

    @Override
    public String host(int rank) {
        return runtime.hostOf(comm.jobRanks[rank]);
    }

    @Override
    public String jobId() {
        return runtime.job.jobId();
    }

    @Override
    public ProgressEngine progressEngine() {
        return runtime.progress;
    }

    @Override
    public int contextId() {
        return comm.context;
    }

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int tag) {
        return runtime.pml.isend(data, comm.peers[dest], tag, comm.context + 1, SendMode.STANDARD);
    }

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
        return runtime.pml.irecv(buffer, comm.peers[source], tag, comm.context + 1);
    }

    @Override
    public int verbosity() {
        return muted ? 0 : verbosity;
    }

    @Override
    public void log(String line) {
        System.err.println("jmca: rank " + runtime.job.rank() + ": " + comm + ": " + line);
    }

    @Override
    public String hint(String key) {
        return hints.get(key);
    }
}
