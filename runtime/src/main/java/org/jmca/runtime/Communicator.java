package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jmca.mca.coll.CollSelection;
import org.jmca.mca.coll.CollTable;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;

/**
 * A communicator as the runtime runs its calls: its context (context + 1 carries its
 * collectives), its ranks as job ranks, the coll modules that serve its collectives (coll/inter's
 * on an intercommunicator), and the bodies of its point-to-point calls. The mpi package's
 * {@code Comm} holds one and adds what the program sees (names, attributes, the error handler).
 *
 * <p>Arguments are checked here, as MPI defines them, and a bad one is an {@link MpiError}.
 */
public final class Communicator {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -2;
    /** The largest tag (MPI_TAG_UB's value). */
    public static final int MAX_TAG = (1 << 30) - 1;
    /** What {@link #source} gives for MPI.PROC_NULL. */
    public static final int NO_SOURCE = -2;

    public final JobRuntime runtime;
    /** How messages name the communicator (MPI_COMM_WORLD, "MPI_COMM_WORLD split(1)", ...). */
    private final String name;
    public final int context;
    /** The job rank of each rank of this communicator (of its local group, on an intercommunicator). */
    public final int[] jobRanks;
    /** The rank in this communicator of each job rank, or -1. */
    private final int[] rankOfJobRank;
    /** The job rank of each rank point-to-point calls name: {@link #jobRanks}, or the remote group's. */
    public final int[] peers;
    /** The rank among {@link #peers} of each job rank, or -1. */
    private final int[] rankOfPeer;
    public final int rank;
    public final CollPort port;
    /** Which coll module serves each collective; null before selection. */
    private CollTable coll;

    /**
     * @param local  the job ranks of this process's group
     * @param remote the job ranks point-to-point calls name: {@code local} itself, or the remote group's
     * @param hints  the info hints the communicator was made with (coll component preferences)
     */
    public Communicator(JobRuntime runtime, String name, int context, int[] local, int[] remote,
                        Map<String, String> hints) {
        this.runtime = runtime;
        this.name = name;
        this.context = context;
        this.jobRanks = local.clone();
        int processes = runtime.pml.peerCount(); // the job's, and those of jobs it connected to
        this.rankOfJobRank = inverse(jobRanks, processes);
        this.peers = local == remote ? jobRanks : remote.clone();
        this.rankOfPeer = local == remote ? rankOfJobRank : inverse(peers, processes);
        this.rank = rankOfJobRank[runtime.job.rank()];
        this.port = new CollPort(this, runtime, hints);
    }

    private static int[] inverse(int[] ranks, int jobSize) {
        int[] inverse = new int[jobSize];
        Arrays.fill(inverse, -1);
        for (int r = 0; r < ranks.length; r++) {
            inverse[ranks[r]] = r;
        }
        return inverse;
    }

    /**
     * Chooses the coll modules for this communicator; returns the lines coll_base_verbose=1
     * reports (components, then functions).
     *
     * @throws org.jmca.mca.McaException if a collective has no component to serve it
     */
    public List<String> selectCollectives() {
        CollSelection.Result selected = CollSelection.select(runtime.collCandidates, port);
        this.coll = selected.table();
        return java.util.stream.Stream.concat(selected.components().stream(), selected.functions().stream()).toList();
    }

    /** The modules serving the collectives, or null before selection. */
    public CollTable coll() {
        return coll;
    }

    public int size() {
        return jobRanks.length;
    }

    /** Whether point-to-point calls name another group's ranks. */
    public boolean inter() {
        return peers != jobRanks;
    }


    /** The rank among the peers of job rank {@code jobRank} (what a status's source is), or -1. */
    public int peerRankOf(int jobRank) {
        return rankOfPeer[jobRank];
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- argument checks ----------------------------------------------------------------------

    /** The job rank of a destination, or -1 for MPI.PROC_NULL. */
    public int destination(int dest) {
        if (dest == PROC_NULL) {
            return -1;
        }
        if (dest < 0 || dest >= peers.length) {
            throw new MpiError(ErrorClass.RANK, "invalid rank " + dest + ": " + name + " has " + peerNames() + " 0.."
                    + (peers.length - 1) + " (or MPI.PROC_NULL)");
        }
        return peers[dest];
    }

    /** The job rank of a source, PmlModule.ANY_SOURCE, or {@link #NO_SOURCE} for MPI.PROC_NULL. */
    public int source(int source) {
        if (source == ANY_SOURCE) {
            return PmlModule.ANY_SOURCE;
        }
        if (source == PROC_NULL) {
            return NO_SOURCE;
        }
        if (source < 0 || source >= peers.length) {
            throw new MpiError(ErrorClass.RANK, "invalid source rank " + source + ": " + name + " has "
                    + peerNames() + " 0.." + (peers.length - 1) + " (or MPI.ANY_SOURCE, MPI.PROC_NULL)");
        }
        return peers[source];
    }

    public String peerNames() {
        return peers == jobRanks ? "ranks" : "remote ranks";
    }

    public static void checkSendTag(int tag) {
        if (tag < 0 || tag > MAX_TAG) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": tags go from 0 to MPI.TAG_UB (" + MAX_TAG + ")");
        }
    }

    public static void checkRecvTag(int tag) {
        if (tag != ANY_TAG) {
            checkSendTag(tag);
        }
    }

    /** A receive's tag as the PML takes it. */
    public static int pmlTag(int tag) {
        return tag == ANY_TAG ? PmlModule.ANY_TAG : tag;
    }

    // ---- point-to-point ---------------------------------------------------------------------

    /**
     * A blocking send: no request is made, only the PML's operation is waited for (an eager send
     * usually completes at once). The hottest path of all: it allocates nothing of its own.
     */
    public void send(Object buf, int count, Type type, int dest, int tag, SendMode mode) {
        checkSendTag(tag);
        int to = destination(dest);
        MemorySegment data = type != null && type.needsPacking() ? UserBuffer.of(buf, count, type, false).segment()
                : UserBuffer.segment(buf, count, type, false);
        if (to >= 0) {
            runtime.enter();
            try {
                PmlRequest request = runtime.pml.isend(data, to, tag, context, mode);
                if (!request.isComplete()) {
                    runtime.progress.waitUntil(request);
                }
            } finally {
                runtime.exit();
            }
        }
    }

    /**
     * A blocking receive: no request is made, only the PML's operation is waited for. Returns the
     * PML's status, or null for a receive from MPI.PROC_NULL.
     */
    public PmlStatus recv(Object buf, int count, Type type, int source, int tag) {
        checkRecvTag(tag);
        int from = source(source);
        UserBuffer packed = type != null && type.needsPacking() ? UserBuffer.of(buf, count, type, true) : null;
        MemorySegment data = packed != null ? packed.segment() : UserBuffer.segment(buf, count, type, true);
        if (from == NO_SOURCE) {
            return null;
        }
        PmlRequest request;
        runtime.enter();
        try {
            request = runtime.pml.irecv(data, from, pmlTag(tag), context);
            if (!request.isComplete()) {
                runtime.progress.waitUntil(request);
            }
        } finally {
            runtime.exit();
        }
        if (packed != null) {
            packed.afterReceive().run();
        }
        return request.status();
    }

    /**
     * A started point-to-point operation: the PML's request (null for MPI.PROC_NULL, which is
     * complete at once) and what to do once a receive completed (unpack), or null.
     */
    public record Started(PmlRequest request, Runnable afterReceive) {
    }

    public Started startSend(Object buf, int count, Type type, int dest, int tag, SendMode mode) {
        checkSendTag(tag);
        int to = destination(dest);
        UserBuffer data = UserBuffer.of(buf, count, type, false);
        return to < 0 ? new Started(null, null) : new Started(runtime.pml.isend(data.segment(), to, tag, context, mode),
                null);
    }

    public Started startRecv(Object buf, int count, Type type, int source, int tag) {
        checkRecvTag(tag);
        int from = source(source);
        UserBuffer data = UserBuffer.of(buf, count, type, true);
        return from == NO_SOURCE ? new Started(null, null)
                : new Started(runtime.pml.irecv(data.segment(), from, pmlTag(tag), context), data.afterReceive());
    }

    /** Waits until a message from {@code source} with {@code tag} can be received; its status, or null for MPI.PROC_NULL. */
    public PmlStatus probe(int source, int tag) {
        checkRecvTag(tag);
        int from = source(source);
        if (from == NO_SOURCE) {
            return null;
        }
        Probe probe = new Probe(runtime.pml, from, pmlTag(tag), context);
        runtime.progress.waitUntil(probe);
        return probe.found;
    }

    /** Waits on a probe without a lambda of the caller's: the engine's wait sees one class. */
    private static final class Probe implements java.util.function.BooleanSupplier {
        private final PmlModule pml;
        private final int from;
        private final int tag;
        private final int context;
        PmlStatus found;

        Probe(PmlModule pml, int from, int tag, int context) {
            this.pml = pml;
            this.from = from;
            this.tag = tag;
            this.context = context;
        }

        @Override
        public boolean getAsBoolean() {
            return (found = pml.iprobe(from, tag, context)) != null;
        }
    }
}
