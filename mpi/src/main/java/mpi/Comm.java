package mpi;

import static org.jmca.mca.coll.CollFunction.*;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollSelection;
import org.jmca.mca.coll.CollTable;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.McaException;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.jmca.rte.WireUpException;

/**
 * A communicator: a group of processes, their ranks in it, and a context that keeps its
 * messages apart from every other communicator's. Point-to-point operations live here;
 * collectives and communicator creation in {@link Intracomm}.
 *
 * <p>Every operation checks its arguments and reports a bad one as an {@link MPIException} of
 * the right class, through the communicator's error handler (by default
 * {@link MPI#ERRORS_ARE_FATAL}: print and abort the job).
 */
public class Comm implements Freeable, Cloneable {
    /** {@link Intracomm#splitType}: the ranks that share memory, those of one host. */
    public static final int TYPE_SHARED = 0;

    private JobRuntime runtime;
    /** Context of point-to-point messages; context + 1 carries this communicator's collectives. */
    int context;
    /** The job rank of each rank of this communicator (of its local group, on an intercommunicator). */
    int[] jobRanks;
    /** The rank in this communicator of each job rank, or -1. */
    private int[] rankOfJobRank;
    /**
     * The job rank of each rank that point-to-point calls name: {@link #jobRanks} here, the
     * remote group on an intercommunicator.
     */
    int[] peers;
    /** The rank among {@link #peers} of each job rank, or -1. */
    private int[] rankOfPeer;
    private int rank;
    /** How messages name the communicator (MPI_COMM_WORLD, "MPI_COMM_WORLD split(1)", ...). */
    private final String name;
    /** The name the program gave it (MPI_Comm_set_name); the predefined ones have theirs. */
    private String userName;
    private Map<String, String> infoHints = Map.of();
    /** The program's attributes, by keyval. */
    private final Map<Integer, Object> attributes = new HashMap<>();
    private static final Keyvals KEYVALS = new Keyvals("Comm", 64);
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    /** Which coll module serves each collective here. */
    CollTable coll;
    CollPort collPort;
    private boolean freed;
    /** The request of the iDup that makes this communicator, or null. */
    private Request idup;

    Comm(String name) {
        this.name = name;
        this.userName = name.matches("MPI_COMM_[A-Z]+") ? name : "";
    }

    /**
     * Makes this a communicator that is none (MPI_COMM_NULL), what split gives a rank with
     * MPI.UNDEFINED; errors on it go to {@code handler}, its parent's.
     */
    final void makeNull(Errhandler handler) {
        freed = true;
        errhandler = handler;
    }

    /** Makes the communicator usable: called at Init for the predefined ones, at creation for the others. */
    final void bind(JobRuntime runtime, int context, int[] jobRanks) throws MPIException {
        bind(runtime, context, jobRanks, Map.of());
    }

    /** As {@link #bind(JobRuntime, int, int[])}, with info hints for the choice of coll components. */
    final void bind(JobRuntime runtime, int context, int[] jobRanks, Map<String, String> hints) throws MPIException {
        this.infoHints = Map.copyOf(hints);
        bindRanks(runtime, context, jobRanks, jobRanks);
        try {
            CollSelection.Result selected = CollSelection.select(runtime.collCandidates, collPort);
            this.coll = selected.table();
            if (runtime.collVerbosity >= 1 && rank == 0 && (jobRanks.length > 1 || runtime.job.rank() == 0)) {
                selected.components().forEach(line -> collPort.log("coll: " + line));
                selected.functions().forEach(line -> collPort.log("coll: " + line));
            }
        } catch (McaException e) {
            throw new MPIException(MPI.ERR_OTHER, e.getMessage());
        }
    }

    /**
     * Makes this an intercommunicator between the local group (this process's) and the remote
     * one, which point-to-point calls name. Its collectives are Intercomm's own, not the coll
     * framework's (whose components work within one group).
     */
    final void bindInter(JobRuntime runtime, int context, int[] local, int[] remote) {
        bindRanks(runtime, context, local, remote);
    }

    private void bindRanks(JobRuntime runtime, int context, int[] local, int[] remote) {
        this.runtime = runtime;
        this.context = context;
        this.jobRanks = local.clone();
        int processes = runtime.pml.peerCount(); // the job's, and those of jobs it connected to
        this.rankOfJobRank = inverse(jobRanks, processes);
        this.peers = local == remote ? jobRanks : remote.clone();
        this.rankOfPeer = local == remote ? rankOfJobRank : inverse(peers, processes);
        this.rank = rankOfJobRank[runtime.job.rank()];
        this.collPort = new CollPort(this, runtime, infoHints);
    }

    private static int[] inverse(int[] ranks, int jobSize) {
        int[] inverse = new int[jobSize];
        Arrays.fill(inverse, -1);
        for (int r = 0; r < ranks.length; r++) {
            inverse[ranks[r]] = r;
        }
        return inverse;
    }

    final JobRuntime runtime() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_COMM, name + " is MPI_COMM_NULL (freed, or what split gave a rank of"
                    + " colour MPI.UNDEFINED)");
        }
        if (runtime == null && idup != null && !MPI.finalized()) {
            throw new MPIException(MPI.ERR_COMM, name + " is not made yet: wait for its iDup's request"
                    + " (getRequest) first");
        }
        if (runtime == null || MPI.finalized()) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is " + (MPI.finalized() ? "finalized" : "not initialized")
                    + ": call MPI.Init first" + (MPI.finalized() ? " (and nothing after MPI.Finalize)" : ""));
        }
        return runtime;
    }

    // ---- errors -----------------------------------------------------------------------------

    /** An MPI operation's body. */
    interface Operation<T> {
        T run(JobRuntime runtime) throws MPIException;
    }

    /** Runs an operation inside the library; failures of any kind go through the error handler. */
    final <T> T call(String operation, Operation<T> body) throws MPIException {
        try {
            JobRuntime rt = runtime();
            rt.enter();
            try {
                return body.run(rt);
            } finally {
                rt.exit();
            }
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure(operation, e);
        }
    }

    /** A failure of any kind as the MPIException the error handler lets through (or it aborts). */
    final MPIException failure(String operation, Exception e) {
        return handleError(operation, e instanceof MPIException m ? m : new MPIException(MPI.ERR_OTHER, e.getMessage()));
    }

    /** Applies the error handler: returns the exception to throw, or aborts the job. */
    final MPIException handleError(String operation, MPIException e) {
        if (errhandler.isFatal()) {
            MPI.fatal(operation + " on " + name + ": " + e.getErrorClassName() + ": " + e.getMessage(),
                    e.getErrorClass());
        }
        return e;
    }

    public void setErrhandler(Errhandler handler) throws MPIException {
        if (handler == null) {
            throw handleError("MPI_Comm_set_errhandler", new MPIException(MPI.ERR_ARG, "the error handler is null"));
        }
        this.errhandler = handler;
    }

    public Errhandler getErrhandler() throws MPIException {
        return errhandler;
    }

    final Errhandler errhandler() {
        return errhandler;
    }

    // ---- identity ---------------------------------------------------------------------------

    public int getRank() throws MPIException {
        return call("MPI_Comm_rank", rt -> rank);
    }

    public int getSize() throws MPIException {
        return call("MPI_Comm_size", rt -> jobRanks.length);
    }

    final int rank() {
        return rank;
    }

    final int size() {
        return jobRanks.length;
    }

    public Group getGroup() throws MPIException {
        return call("MPI_Comm_group", rt -> new Group(jobRanks, rt.job.rank()));
    }

    /** MPI.IDENT for the same communicator, MPI.CONGRUENT for the same ranks in the same order, etc. */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1 == comm2) {
            return MPI.IDENT;
        }
        return Group.compare(comm1.getGroup(), comm2.getGroup()) == MPI.IDENT ? MPI.CONGRUENT
                : Group.compare(comm1.getGroup(), comm2.getGroup());
    }

    // ---- duplicates, names, info -------------------------------------------------------------

    /** A new communicator with the same ranks, a context of its own and this one's attributes. Collective. */
    public Comm dup() throws MPIException {
        return dupWithInfo(MPI.INFO_NULL);
    }

    /**
     * As {@link #dup()}, with hints: {@code ompi_comm_coll_preference} ("a,b,^c") prefers the
     * named coll components for the new communicator, in that order, and leaves out those with '^'.
     */
    public Comm dupWithInfo(Info info) throws MPIException {
        return call("MPI_Comm_dup_with_info", rt -> {
            Comm copy = sameKind(this + "'s dup");
            bindDuplicate(rt, copy, info == null || info.isNull() ? Map.of() : info.entries());
            inherit(copy);
            return copy;
        });
    }

    /** What a duplicate takes from this communicator: its error handler and attributes. */
    private void inherit(Comm copy) throws MPIException {
        copy.setErrhandler(errhandler());
        copy.attributes.putAll(attributes);
    }

    /**
     * A duplicate made without blocking: the communicator returned may be used once its
     * {@link #getRequest()} has completed (by a wait or test). Collective.
     */
    public Comm iDup() throws MPIException {
        return call("MPI_Comm_idup", rt -> {
            Comm copy = sameKind(this + "'s idup");
            Map<String, String> hints = infoHints;
            copy.idup = new Request(this, new ContextAgreement(this, rt, context -> {
                if (inter()) {
                    copy.bindInter(rt, context, jobRanks, peers);
                } else {
                    copy.bind(rt, context, jobRanks, hints);
                }
                inherit(copy);
            }), null);
            return copy;
        });
    }

    /** The request of the iDup that made this communicator; MPI.REQUEST_NULL for any other. */
    public Request getRequest() {
        return idup != null ? idup : MPI.REQUEST_NULL;
    }

    /** Binds {@code copy} to this communicator's processes with a context of its own. Collective. */
    void bindDuplicate(JobRuntime rt, Comm copy, Map<String, String> hints) throws MPIException {
        copy.bind(rt, rt.agreeOnContext(this), jobRanks, hints);
    }

    /** A communicator of this one's kind, to be bound. */
    Comm sameKind(String name) throws MPIException {
        throw new MPIException(MPI.ERR_COMM, name + ": this kind of communicator cannot be duplicated");
    }

    /** A duplicate ({@link #dup()}); an error becomes an unchecked exception, as clone cannot throw one. */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The program's name for the communicator; "MPI_COMM_WORLD" and "MPI_COMM_SELF" for those; "" if none. */
    public String getName() throws MPIException {
        return call("MPI_Comm_get_name", rt -> userName);
    }

    public void setName(String newName) throws MPIException {
        call("MPI_Comm_set_name", rt -> {
            if (newName == null || newName.length() > MPI.MAX_OBJECT_NAME) {
                throw new MPIException(MPI.ERR_ARG, "a communicator's name is at most MPI.MAX_OBJECT_NAME ("
                        + MPI.MAX_OBJECT_NAME + ") characters, not " + (newName == null ? "null" : newName.length()));
            }
            userName = newName;
            return null;
        });
    }

    /** The hints the communicator was made with. */
    public Info getInfo() throws MPIException {
        return call("MPI_Comm_get_info", rt -> new Info(infoHints));
    }

    /** Replaces the hints; JMCA reads them when a communicator is made, so they count for its duplicates. */
    public void setInfo(Info info) throws MPIException {
        call("MPI_Comm_set_info", rt -> {
            infoHints = info == null || info.isNull() ? Map.of() : info.entries();
            return null;
        });
    }

    /** Whether this is an intercommunicator. */
    public boolean isInter() throws MPIException {
        return call("MPI_Comm_test_inter", rt -> inter());
    }

    /** Whether point-to-point calls name another group's ranks. */
    final boolean inter() {
        return peers != jobRanks;
    }

    /**
     * An intercommunicator between this communicator's group and another group, made by both
     * groups at once: {@code localLeader} (a rank here) and {@code remoteLeader} (its rank in
     * {@code bridge}) exchange their groups over {@code bridge} with {@code tag}. Collective over
     * both groups.
     */
    public Intercomm createIntercomm(Comm bridge, int localLeader, int remoteLeader, int tag) throws MPIException {
        return call("MPI_Intercomm_create", rt -> {
            if (isInter()) {
                throw new MPIException(MPI.ERR_COMM, "the local communicator " + this + " is an intercommunicator");
            }
            if (localLeader < 0 || localLeader >= size()) {
                throw new MPIException(MPI.ERR_RANK, "local leader " + localLeader + " is not a rank of " + this);
            }
            if (Arrays.stream(jobRanks).anyMatch(r -> r >= rt.job.size())) {
                throw new MPIException(MPI.ERR_COMM, this + " has processes of another job: createIntercomm takes"
                        + " groups of this job's processes (use accept/connect or merge between jobs)");
            }
            // the leader tells the group what came back: {0, ranks...}, or {error class} if it failed
            int[] told = null;
            int leader = -1;
            if (rank() == localLeader) {
                try {
                    if (bridge == null) {
                        throw new MPIException(MPI.ERR_COMM, "the bridge communicator is null");
                    }
                    checkSendTag(tag);
                    leader = bridge.destination(remoteLeader);
                    if (leader >= rt.job.size()) {
                        throw new MPIException(MPI.ERR_COMM, "the remote leader is a process of another job:"
                                + " createIntercomm takes groups of this job's processes");
                    }
                    int[] theirs = leadersExchange(rt, jobRanks, leader, tag, bridge.context, rt.job.size());
                    told = new int[1 + theirs.length];
                    System.arraycopy(theirs, 0, told, 1, theirs.length);
                } catch (MPIException e) {
                    InternalCollectives.bcast(this, new int[] {e.getErrorClass()}, localLeader, rt.job.size() + 1);
                    throw e;
                }
            }
            told = InternalCollectives.bcast(this, told, localLeader, rt.job.size() + 1);
            if (told[0] != 0) {
                throw new MPIException(told[0], "the local leader (rank " + localLeader + " of " + this + ") could"
                        + " not reach the remote leader (it reports why)");
            }
            int remoteLeaderRank = leader;
            // the largest over both groups: each group's, swapped by the leaders over the bridge
            int context = rt.agree(value -> {
                int local = InternalCollectives.allreduceMax(this, value);
                int[] theirs = rank() == localLeader
                        ? leadersExchange(rt, new int[] {local}, remoteLeaderRank, tag, bridge.context, 1) : null;
                return Math.max(local, InternalCollectives.bcast(this, theirs, localLeader, 1)[0]);
            });
            Intercomm inter = new Intercomm(this + " intercomm(" + tag + ")");
            inter.bindInter(rt, context, jobRanks, Arrays.copyOfRange(told, 1, told.length));
            inter.setErrhandler(errhandler());
            return inter;
        });
    }

    /**
     * Sends {@code mine} to {@code leader} and returns what it sent this way (up to {@code
     * capacity} ints), on {@code context} with {@code tag}.
     */
    static int[] leadersExchange(JobRuntime rt, int[] mine, int leader, int tag, int context, int capacity)
            throws MPIException {
        if (leader < 0) {
            throw new MPIException(MPI.ERR_RANK, "the remote leader is MPI.PROC_NULL");
        }
        int[] theirs = new int[capacity];
        PmlRequest receive = rt.pml.irecv(MemorySegment.ofArray(theirs), leader, tag, context);
        PmlRequest send = rt.pml.isend(MemorySegment.ofArray(mine), leader, tag, context, SendMode.STANDARD);
        rt.progress.waitUntil(() -> receive.isComplete() && send.isComplete());
        if (receive.status().truncated()) {
            throw new MPIException(MPI.ERR_TRUNCATE, "the remote leader sent more than the " + capacity
                    + " ints expected");
        }
        return Arrays.copyOf(theirs, (int) (receive.status().byteCount() / Integer.BYTES));
    }

    /** MPI.CART, MPI.GRAPH, MPI.DIST_GRAPH, or MPI.UNDEFINED for a communicator without a topology. */
    public final int getTopology() throws MPIException {
        return call("MPI_Topo_test", rt -> topology());
    }

    /** MPI.CART, MPI.GRAPH, MPI.DIST_GRAPH or MPI.UNDEFINED, by the kind of communicator. */
    int topology() {
        return MPI.UNDEFINED;
    }

    // ---- attributes ---------------------------------------------------------------------------

    /** A new attribute key for {@link #setAttr}; a duplicate of a communicator carries its attributes. */
    public static int createKeyval() throws MPIException {
        return KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        KEYVALS.free(keyval);
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        call("MPI_Comm_set_attr", rt -> {
            attributes.put(userKeyval(keyval), value);
            return null;
        });
    }

    public void deleteAttr(int keyval) throws MPIException {
        call("MPI_Comm_delete_attr", rt -> attributes.remove(userKeyval(keyval)));
    }

    /**
     * The value of an attribute, or null if it is not set. The predefined ones, as Integers:
     * MPI.TAG_UB the largest tag; MPI.HOST MPI.PROC_NULL (no host process); MPI.IO MPI.ANY_SOURCE
     * (every rank can do I/O); MPI.WTIME_IS_GLOBAL 0; MPI.APPNUM 0; MPI.UNIVERSE_SIZE the job's
     * size; MPI.LASTUSEDCODE MPI.ERR_LASTCODE.
     */
    public Object getAttr(int keyval) throws MPIException {
        return call("MPI_Comm_get_attr", rt -> switch (keyval) {
            case MPI.TAG_UB -> MPI.MAX_TAG;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL, MPI.APPNUM -> 0;
            case MPI.UNIVERSE_SIZE -> rt.job.size();
            case MPI.LASTUSEDCODE -> MPI.ERR_LASTCODE;
            default -> {
                if (!KEYVALS.contains(keyval) && !attributes.containsKey(keyval)) {
                    throw new MPIException(MPI.ERR_KEYVAL, "unknown attribute key " + keyval);
                }
                yield attributes.get(keyval);
            }
        });
    }

    private static int userKeyval(int keyval) throws MPIException {
        if (keyval >= MPI.TAG_UB && keyval <= MPI.UNIVERSE_SIZE) {
            throw new MPIException(MPI.ERR_KEYVAL, "keyval " + keyval + " is predefined: it cannot be set or deleted");
        }
        return KEYVALS.check(keyval);
    }

    // ---- errors the program raises ----------------------------------------------------------------

    /** Calls the error handler with {@code errorcode}: MPI.ERRORS_ARE_FATAL aborts; MPI.ERRORS_RETURN returns. */
    public void callErrhandler(int errorcode) throws MPIException {
        runtime();
        handleError("MPI_Comm_call_errhandler", new MPIException(errorcode, "raised by the program"));
    }

    public boolean isNull() {
        return freed;
    }

    public void free() throws MPIException {
        call("MPI_Comm_free", rt -> {
            if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
                throw new MPIException(MPI.ERR_COMM, "the predefined " + name + " cannot be freed");
            }
            freed = true;
            attributes.clear();
            if (coll != null) { // an intercommunicator has no coll modules
                coll.modules().forEach(CollModule::free);
            }
            return null;
        });
    }

    /**
     * Waits until the communication on this communicator is done (a barrier over both groups of
     * an intercommunicator), then frees it: what ends a connection made by accept, connect or
     * spawn. Collective.
     */
    public void disconnect() throws MPIException {
        call("MPI_Comm_disconnect", rt -> {
            rt.progress.waitUntil(() -> !rt.pml.hasPendingSends());
            return null;
        });
        barrier();
        free();
    }

    /** Aborts every process of the job with {@code errorcode} as their exit status. */
    public void abort(int errorcode) throws MPIException {
        MPI.abortJob(errorcode, "MPI_Abort(" + name + ", " + errorcode + ") called by rank " + rank);
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- argument checks ----------------------------------------------------------------------

    /** The job rank of a destination, or -1 for MPI.PROC_NULL. */
    final int destination(int dest) throws MPIException {
        if (dest == MPI.PROC_NULL) {
            return -1;
        }
        if (dest < 0 || dest >= peers.length) {
            throw new MPIException(MPI.ERR_RANK, "invalid rank " + dest + ": " + name + " has " + peerNames() + " 0.."
                    + (peers.length - 1) + " (or MPI.PROC_NULL)");
        }
        return peers[dest];
    }

    /** The job rank of a source, PmlModule.ANY_SOURCE, or -2 for MPI.PROC_NULL. */
    final int source(int source) throws MPIException {
        if (source == MPI.ANY_SOURCE) {
            return PmlModule.ANY_SOURCE;
        }
        if (source == MPI.PROC_NULL) {
            return -2;
        }
        if (source < 0 || source >= peers.length) {
            throw new MPIException(MPI.ERR_RANK, "invalid source rank " + source + ": " + name + " has "
                    + peerNames() + " 0.." + (peers.length - 1) + " (or MPI.ANY_SOURCE, MPI.PROC_NULL)");
        }
        return peers[source];
    }

    private String peerNames() {
        return peers == jobRanks ? "ranks" : "remote ranks";
    }

    static void checkSendTag(int tag) throws MPIException {
        if (tag < 0 || tag > MPI.MAX_TAG) {
            throw new MPIException(MPI.ERR_TAG, "invalid tag " + tag + ": tags go from 0 to MPI.TAG_UB ("
                    + MPI.MAX_TAG + ")");
        }
    }

    static void checkRecvTag(int tag) throws MPIException {
        if (tag != MPI.ANY_TAG) {
            checkSendTag(tag);
        }
    }

    /** A PML status in this communicator's terms (source as a rank here). */
    final Status toStatus(PmlStatus s) {
        if (s.cancelled()) {
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, true);
        }
        int source = s.source() >= 0 ? rankOfPeer[s.source()] : MPI.ANY_SOURCE;
        return new Status(source, s.tag() < 0 ? MPI.ANY_TAG : s.tag(), s.truncated() ? MPI.ERR_TRUNCATE : MPI.SUCCESS,
                s.byteCount(), false);
    }

    private static Status procNullStatus() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
    }

    // ---- starting operations -------------------------------------------------------------------

    final Request startSend(Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        checkSendTag(tag);
        int to = destination(dest);
        UserBuffer data = UserBuffer.of(buf, count, type, false);
        if (to < 0) {
            return Request.completed(this, procNullStatus());
        }
        return new Request(this, runtime().pml.isend(data.segment(), to, tag, context, mode), null);
    }

    final Request startRecv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        checkRecvTag(tag);
        int from = source(source);
        UserBuffer data = UserBuffer.of(buf, count, type, true);
        if (from == -2) {
            return Request.completed(this, procNullStatus());
        }
        return new Request(this, runtime().pml.irecv(data.segment(), from, tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag,
                context), data.afterReceive());
    }

    private Request startBuffered(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        checkSendTag(tag);
        int to = destination(dest);
        UserBuffer data = UserBuffer.of(buf, count, type, false);
        if (to < 0) {
            return Request.completed(this, procNullStatus());
        }
        return MPI.bufferedSends().send(this, data.segment(), to, tag);
    }

    // ---- blocking point-to-point ------------------------------------------------------------

    /**
     * A blocking send: no request or status is made, only the PML's operation is waited for (an
     * eager send usually completes at once). Written out without {@link #call}'s lambda: this is
     * the hottest path of all.
     */
    private void blockingSend(String operation, Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        try {
            JobRuntime rt = runtime();
            checkSendTag(tag);
            int to = destination(dest);
            MemorySegment data = type != null && type.needsPacking() ? UserBuffer.of(buf, count, type, false).segment()
                    : UserBuffer.segment(buf, count, type, false);
            if (to >= 0) {
                rt.enter();
                try {
                    PmlRequest request = rt.pml.isend(data, to, tag, context, mode);
                    if (!request.isComplete()) {
                        rt.progress.waitUntil(request);
                    }
                } finally {
                    rt.exit();
                }
            }
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure(operation, e);
        }
    }

    public void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Send", buf, count, type, dest, tag, SendMode.STANDARD);
    }

    /** Synchronous send: returns once the receiver has matched the message. */
    public void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Ssend", buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** Ready send: the receive must already be posted; JMCA sends it as a standard send. */
    public void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Rsend", buf, count, type, dest, tag, SendMode.STANDARD);
    }

    /** Buffered send: copies into the buffer given to {@link MPI#attachBuffer} and returns. */
    public void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        call("MPI_Bsend", rt -> startBuffered(buf, count, type, dest, tag));
    }

    /** A blocking receive: no request is made, only the PML's operation is waited for. */
    public Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        try {
            JobRuntime rt = runtime();
            checkRecvTag(tag);
            int from = source(source);
            UserBuffer packed = type != null && type.needsPacking() ? UserBuffer.of(buf, count, type, true) : null;
            MemorySegment data = packed != null ? packed.segment() : UserBuffer.segment(buf, count, type, true);
            if (from == -2) {
                return procNullStatus();
            }
            PmlRequest request;
            rt.enter();
            try {
                request = rt.pml.irecv(data, from, tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag, context);
                if (!request.isComplete()) {
                    rt.progress.waitUntil(request);
                }
            } finally {
                rt.exit();
            }
            if (packed != null) {
                packed.afterReceive().run();
            }
            return checkTruncation(toStatus(request.status()));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure("MPI_Recv", e);
        }
    }

    /** A status whose message was truncated becomes an MPI_ERR_TRUNCATE error. */
    static Status checkTruncation(Status status) throws MPIException {
        if (status.getError() != MPI.SUCCESS) {
            throw new MPIException(status.getError(), "a message from rank " + status.getSource() + " with tag "
                    + status.getTag() + " was longer than the receive buffer");
        }
        return status;
    }

    public Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        return call("MPI_Sendrecv", rt -> {
            Request receive = startRecv(recvbuf, recvcount, recvtype, source, recvtag);
            Request send = startSend(sendbuf, sendcount, sendtype, dest, sendtag, SendMode.STANDARD);
            send.waitStatus();
            return receive.waitStatus();
        });
    }

    public Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                  int recvtag) throws MPIException {
        return call("MPI_Sendrecv_replace", rt -> {
            UserBuffer original = UserBuffer.of(buf, count, type, false);
            byte[] copy = original.segment().toArray(ValueLayout.JAVA_BYTE);
            Request receive = startRecv(buf, count, type, source, recvtag);
            int to = destination(dest);
            checkSendTag(sendtag);
            if (to >= 0) {
                PmlRequest send = rt.pml.isend(MemorySegment.ofArray(copy), to, sendtag, context,
                        SendMode.STANDARD);
                rt.progress.waitUntil(send::isComplete);
            }
            return receive.waitStatus();
        });
    }

    // ---- non-blocking point-to-point ----------------------------------------------------------

    public Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return call("MPI_Isend", rt -> startSend(buf, count, type, dest, tag, SendMode.STANDARD));
    }

    public Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return call("MPI_Issend", rt -> startSend(buf, count, type, dest, tag, SendMode.SYNCHRONOUS));
    }

    public Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return call("MPI_Irsend", rt -> startSend(buf, count, type, dest, tag, SendMode.STANDARD));
    }

    public Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return call("MPI_Ibsend", rt -> startBuffered(buf, count, type, dest, tag));
    }

    public Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return call("MPI_Irecv", rt -> startRecv(buf, count, type, source, tag));
    }

    // ---- persistent requests ----------------------------------------------------------------

    public Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Send_init", () -> startSend(buf, count, type, dest, tag, SendMode.STANDARD));
    }

    public Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Ssend_init", () -> startSend(buf, count, type, dest, tag, SendMode.SYNCHRONOUS));
    }

    public Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Rsend_init", () -> startSend(buf, count, type, dest, tag, SendMode.STANDARD));
    }

    public Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Bsend_init", () -> startBuffered(buf, count, type, dest, tag));
    }

    public Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return persistent("MPI_Recv_init", () -> startRecv(buf, count, type, source, tag));
    }

    private Prequest persistent(String operation, Prequest.Starter starter) throws MPIException {
        return call(operation, rt -> new Prequest(this, () -> call(operation, r -> starter.start())));
    }

    // ---- alltoallw ----------------------------------------------------------------------------------

    /**
     * Every rank sends block j to rank j and receives block i from rank i, each block with its own
     * count, datatype and displacement in bytes. Collective.
     */
    public void allToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf,
                          int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        allToAllw("MPI_Alltoallw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes)
                .waitFor();
    }

    public Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf,
                              int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        return allToAllw("MPI_Ialltoallw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                recvTypes);
    }

    /** alltoallw as one message to and from every rank on the collective context, under one tag. */
    private Request allToAllw(String operation, Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                              Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        return call(operation, rt -> {
            int n = peers.length;
            for (Object array : new Object[] {sendCount, sDispls, sendTypes, recvCount, rDispls, recvTypes}) {
                if (array == null || java.lang.reflect.Array.getLength(array) < n) {
                    throw new MPIException(MPI.ERR_ARG, "alltoallw needs counts, displacements and types for each of"
                            + " the " + n + " " + peerNames());
                }
            }
            int tag = collPort.nextTag();
            List<PmlRequest> operations = new ArrayList<>();
            List<Runnable> unpack = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                UserBuffer in = UserBuffer.of(UserBuffer.atByte(recvBuf, rDispls[r]), recvCount[r], recvTypes[r], true);
                operations.add(rt.pml.irecv(in.segment(), peers[r], tag, context + 1));
                if (in.afterReceive() != null) {
                    unpack.add(in.afterReceive());
                }
            }
            for (int r = 0; r < n; r++) {
                MemorySegment out = UserBuffer.of(UserBuffer.atByte(sendBuf, sDispls[r]), sendCount[r], sendTypes[r],
                        false).segment();
                operations.add(rt.pml.isend(out, peers[r], tag, context + 1, SendMode.STANDARD));
            }
            return new Request(this, PmlRequest.allOf(operations), unpack.isEmpty() ? null
                    : () -> unpack.forEach(Runnable::run));
        });
    }

    // ---- neighbourhood collectives ----------------------------------------------------------------

    /** The ranks this one receives from in neighbourhood collectives, in order (MPI.PROC_NULL: none there). */
    int[] inNeighbours() throws MPIException {
        throw new MPIException(MPI.ERR_TOPOLOGY, this + " has no process topology: neighbourhood collectives need a"
                + " communicator from createCart, createGraph or createDistGraph");
    }

    /** The ranks this one sends to in neighbourhood collectives, in order. */
    int[] outNeighbours() throws MPIException {
        return inNeighbours();
    }

    /** Every neighbour gets {@code sendbuf}; block i of {@code recvbuf} comes from in-neighbour i. */
    public void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_allgather", Blocks.whole(sendbuf, sendcount, sendtype),
                Blocks.even(recvbuf, recvcount, recvtype)).waitFor();
    }

    public Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                      int recvcount, Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_allgather", Blocks.whole(sendbuf, sendcount, sendtype),
                Blocks.even(recvbuf, recvcount, recvtype));
    }

    /** As neighborAllGather, the block from in-neighbour i with {@code recvcount[i]} elements at {@code displs[i]}. */
    public void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                   int[] displs, Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_allgatherv", Blocks.whole(sendbuf, sendcount, sendtype),
                Blocks.varying(recvbuf, recvcount, displs, recvtype)).waitFor();
    }

    public Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                       int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_allgatherv", Blocks.whole(sendbuf, sendcount, sendtype),
                Blocks.varying(recvbuf, recvcount, displs, recvtype));
    }

    /** Block j of {@code sendbuf} goes to out-neighbour j; block i of {@code recvbuf} comes from in-neighbour i. */
    public void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_alltoall", Blocks.even(sendbuf, sendcount, sendtype),
                Blocks.even(recvbuf, recvcount, recvtype)).waitFor();
    }

    public Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                     Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_alltoall", Blocks.even(sendbuf, sendcount, sendtype),
                Blocks.even(recvbuf, recvcount, recvtype));
    }

    public void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                  int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_alltoallv", Blocks.varying(sendbuf, sendcount, sdispls, sendtype),
                Blocks.varying(recvbuf, recvcount, rdispls, recvtype)).waitFor();
    }

    public Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                      Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        return neighbours("MPI_Ineighbor_alltoallv", Blocks.varying(sendbuf, sendcount, sdispls, sendtype),
                Blocks.varying(recvbuf, recvcount, rdispls, recvtype));
    }

    /**
     * One side of a neighbourhood collective: the whole buffer to every neighbour ({@code counts}
     * null), or one block per neighbour, of {@code count} elements one after another ({@code
     * counts} empty) or of {@code counts[i]} at {@code displs[i]}.
     */
    record Blocks(Object buffer, int count, int[] counts, int[] displs, Datatype type) {
        static Blocks whole(Object buffer, int count, Datatype type) {
            return new Blocks(buffer, count, null, null, type);
        }

        static Blocks even(Object buffer, int count, Datatype type) {
            return new Blocks(buffer, count, new int[0], null, type);
        }

        static Blocks varying(Object buffer, int[] counts, int[] displs, Datatype type) {
            return new Blocks(buffer, 0, counts, displs, type);
        }

        /** {counts, displacements} of {@code n} blocks. */
        int[][] layout(int n, String what) throws MPIException {
            if (counts.length == 0) {
                int[] each = new int[n];
                int[] at = new int[n];
                for (int i = 0; i < n; i++) {
                    each[i] = count;
                    at[i] = i * count;
                }
                return new int[][] {each, at};
            }
            if (counts.length < n || displs == null || displs.length < n) {
                throw new MPIException(MPI.ERR_COUNT, "the " + what + " counts and displacements need " + n
                        + " entries, one per neighbour");
            }
            return new int[][] {counts, displs};
        }

        MemorySegment slice(MemorySegment all, int[][] layout, int i) {
            return all.asSlice((long) layout[1][i] * type.size(), (long) layout[0][i] * type.size());
        }
    }

    /** One neighbourhood collective: an {@link #exchange} with the topology's neighbours. */
    private Request neighbours(String operation, Blocks send, Blocks receive) throws MPIException {
        return call(operation, rt -> exchange(rt, send, outNeighbours(), receive, inNeighbours()));
    }

    /**
     * A collective as point-to-point messages on the collective context, under one tag every
     * rank draws alike: block j of {@code send} to {@code out[j]}, block i of {@code receive}
     * from {@code in[i]} (ranks as point-to-point calls name them; MPI.PROC_NULL is skipped).
     */
    final Request exchange(JobRuntime rt, Blocks send, int[] out, Blocks receive, int[] in) throws MPIException {
        int tag = collPort.nextTag();
        List<PmlRequest> operations = new ArrayList<>();
        if (out.length > 0 && send.counts() == null) {
            MemorySegment whole = UserBuffer.of(send.buffer(), send.count(), send.type(), false).segment();
            for (int to : out) {
                send(rt, operations, whole, to, tag);
            }
        } else if (out.length > 0) {
            int[][] layout = send.layout(out.length, "send");
            MemorySegment all = UserBuffer.of(send.buffer(), Collectives.span(layout[0], layout[1]), send.type(),
                    false).segment();
            for (int j = 0; j < out.length; j++) {
                send(rt, operations, send.slice(all, layout, j), out[j], tag);
            }
        }
        Runnable unpack = null;
        if (in.length > 0) {
            int[][] layout = receive.layout(in.length, "receive");
            UserBuffer target = UserBuffer.of(receive.buffer(), Collectives.span(layout[0], layout[1]),
                    receive.type(), true);
            for (int i = 0; i < in.length; i++) {
                if (in[i] != MPI.PROC_NULL) {
                    operations.add(rt.pml.irecv(receive.slice(target.segment(), layout, i), peers[in[i]], tag,
                            context + 1));
                }
            }
            unpack = target.afterReceive();
        }
        return new Request(this, PmlRequest.allOf(operations), unpack);
    }

    private void send(JobRuntime rt, List<PmlRequest> operations, MemorySegment data, int to, int tag) {
        if (to != MPI.PROC_NULL) {
            operations.add(rt.pml.isend(data, peers[to], tag, context + 1, SendMode.STANDARD));
        }
    }

    // ---- packing ---------------------------------------------------------------------------

    /**
     * Packs {@code incount} elements of {@code type} from {@code inbuf} into {@code outbuf} from
     * byte {@code position}; returns the position after them.
     */
    public int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return call("MPI_Pack", rt -> {
            MemorySegment packed = UserBuffer.of(inbuf, incount, type, false).segment();
            checkRoom(outbuf, position, packed.byteSize(), "pack into");
            MemorySegment.copy(packed, 0, MemorySegment.ofArray(outbuf), position, packed.byteSize());
            return position + (int) packed.byteSize();
        });
    }

    /**
     * Unpacks {@code outcount} elements of {@code type} into {@code outbuf} from {@code inbuf} at
     * byte {@code position}; returns the position after them.
     */
    public int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        return call("MPI_Unpack", rt -> {
            UserBuffer target = UserBuffer.of(outbuf, outcount, type, true);
            long bytes = target.segment().byteSize();
            checkRoom(inbuf, position, bytes, "unpack from");
            MemorySegment.copy(MemorySegment.ofArray(inbuf), position, target.segment(), 0, bytes);
            if (target.afterReceive() != null) {
                target.afterReceive().run();
            }
            return position + (int) bytes;
        });
    }

    /** The bytes {@link #pack} needs for {@code incount} elements of {@code type}. */
    public int packSize(int incount, Datatype type) throws MPIException {
        return call("MPI_Pack_size", rt -> {
            if (incount < 0 || type == null) {
                throw new MPIException(incount < 0 ? MPI.ERR_COUNT : MPI.ERR_TYPE, "packSize of " + incount + " "
                        + type);
            }
            return Math.multiplyExact(incount, type.getSize());
        });
    }

    private static void checkRoom(byte[] buffer, int position, long bytes, String what) throws MPIException {
        if (buffer == null || position < 0 || position + bytes > buffer.length) {
            throw new MPIException(MPI.ERR_TRUNCATE, "cannot " + what + " a byte[] of "
                    + (buffer == null ? "null" : buffer.length) + " bytes at position " + position + ": " + bytes
                    + " bytes needed");
        }
    }

    // ---- probing ---------------------------------------------------------------------------

    /** Waits until a message from {@code source} with {@code tag} can be received; returns its status. */
    public Status probe(int source, int tag) throws MPIException {
        return call("MPI_Probe", rt -> {
            checkRecvTag(tag);
            int from = source(source);
            if (from == -2) {
                return procNullStatus();
            }
            PmlStatus[] found = new PmlStatus[1];
            int pmlTag = tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag;
            rt.progress.waitUntil(() -> (found[0] = rt.pml.iprobe(from, pmlTag, context)) != null);
            return toStatus(found[0]);
        });
    }

    /** The status of a message that could be received now, or null if there is none. */
    public Status iProbe(int source, int tag) throws MPIException {
        return call("MPI_Iprobe", rt -> {
            checkRecvTag(tag);
            int from = source(source);
            if (from == -2) {
                return procNullStatus();
            }
            rt.progress.progress();
            PmlStatus found = rt.pml.iprobe(from, tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag, context);
            return found == null ? null : toStatus(found);
        });
    }

    // ---- collectives ------------------------------------------------------------------------
    // Each builds a CollCall (see Collectives) and runs it on the module that serves the
    // function on this communicator. A null send buffer is MPI_IN_PLACE.

    /** One collective call: its body builds and runs or starts the CollCall. */
    interface CollectiveBody<T> {
        T run(Collectives c) throws MPIException;
    }

    final <T> T collective(String operation, CollectiveBody<T> body) throws MPIException {
        return call(operation, rt -> body.run(collectives(rt, operation)));
    }

    /**
     * The call's helper; on an intercommunicator, whose collectives Intercomm implements, what
     * reaches here is a form MPI defines only within one group (in place, scans).
     */
    private Collectives collectives(JobRuntime rt, String operation) throws MPIException {
        if (coll == null) {
            throw new MPIException(MPI.ERR_COMM, operation + " in this form is not defined on an intercommunicator"
                    + " (in-place forms and scans work within one group)");
        }
        return new Collectives(this, rt);
    }

    /** Builds one call's CollCall from its MPI arguments. */
    interface CallBuilder {
        CollCall build(Collectives c) throws MPIException;
    }

    /** A blocking collective: builds the call and runs it to completion. */
    final void runCollective(String operation, CollFunction function, CallBuilder builder) throws MPIException {
        collective(operation, c -> {
            c.run(function, builder.build(c));
            return null;
        });
    }

    /** A non-blocking collective: builds the call and starts it. */
    final Request startCollective(String operation, CollFunction function, CallBuilder builder) throws MPIException {
        return collective(operation, c -> c.start(function, builder.build(c)));
    }

    private static CollCall collCall(MemorySegment send, MemorySegment recv, int count, int unit, int root,
                                     Reduction op, int tag) {
        return CollCall.of(send, recv, count, unit, root, op, tag);
    }

    /**
     * Enters the library for a blocking collective. The hottest collectives (barrier, bcast,
     * reduce, allreduce) are written out with it rather than through {@link #runCollective}'s
     * lambda: the JIT then compiles each alone, small and monomorphic. Through one shared method,
     * whose profile every collective pollutes, its C2 compile took the longest of a whole
     * application loop (0.56 s, JFR) and was undone whenever the application moved on to
     * another collective.
     */
    private Collectives enterCollective(String operation) throws MPIException {
        try {
            JobRuntime rt = runtime();
            Collectives c = collectives(rt, operation);
            rt.enter();
            return c;
        } catch (MPIException | McaException e) {
            throw failure(operation, e);
        }
    }

    /** Returns once every rank of the communicator has called it. */
    public void barrier() throws MPIException {
        Collectives c = enterCollective("MPI_Barrier");
        try {
            c.run(BARRIER, collCall(null, null, 0, 1, 0, null, c.tag()));
        } catch (McaException | WireUpException | UncheckedIOException e) {
            throw failure("MPI_Barrier", e);
        } finally {
            c.exit();
        }
    }

    public Request iBarrier() throws MPIException {
        return startCollective("MPI_Ibarrier", BARRIER, c -> collCall(null, null, 0, 1, 0, null, c.tag()));
    }

    public void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Collectives c = enterCollective("MPI_Bcast");
        try {
            c.run(BCAST, bcastCall(c, buf, count, type, root));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure("MPI_Bcast", e);
        } finally {
            c.exit();
        }
    }

    public Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Ibcast", BCAST, c -> bcastCall(c, buf, count, type, root));
    }

    private static CollCall bcastCall(Collectives c, Object buf, int count, Datatype type, int root)
            throws MPIException {
        c.types(type).root(root);
        MemorySegment data = c.isRoot(root) ? c.send(buf, count, type) : c.recv(buf, count, type);
        return collCall(null, data, count, c.unit(), root, null, c.tag());
    }

    public void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                       Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Gather", GATHER, c ->
                gatherCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** In place at the root: its block is already in {@code buf}. */
    public void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        runCollective("MPI_Gather", GATHER, c -> inPlaceGatherCall(c, buf, count, type, root));
    }

    public Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                           Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Igather", GATHER, c ->
                gatherCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    public Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Igather", GATHER, c -> inPlaceGatherCall(c, buf, count, type, root));
    }

    /** Gather in place: the root's block is in {@code buf}; the others send from it. */
    private CollCall inPlaceGatherCall(Collectives c, Object buf, int count, Datatype type, int root)
            throws MPIException {
        return c.isRoot(root) ? gatherCall(c, null, count, type, buf, count, type, root)
                : gatherCall(c, buf, count, type, null, count, type, root);
    }

    private CollCall gatherCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                int recvcount, Datatype recvtype, int root) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.root(root);
        boolean inPlace = sendbuf == null && c.isRoot(root);
        c.types(inPlace ? recvtype : sendtype, c.isRoot(root) ? recvtype : null);
        int block = inPlace ? c.units(recvcount, recvtype) : c.units(sendcount, sendtype);
        MemorySegment send = inPlace ? null : c.send(sendbuf, sendcount, sendtype);
        MemorySegment recv = null;
        if (c.isRoot(root)) {
            checkSignature(c, block, recvcount, recvtype, "receive");
            recv = c.recv(recvbuf, (long) recvcount * size(), recvtype);
        }
        return collCall(send, recv, block, c.unit(), root, null, c.tag());
    }

    /** The root's per-rank count must describe as many bytes as every rank's block. */
    private static void checkSignature(Collectives c, int blockUnits, int count, Datatype type, String side)
            throws MPIException {
        if (c.units(count, type) != blockUnits) {
            throw new MPIException(MPI.ERR_TRUNCATE, "the " + side + " count " + count + " of " + type
                    + " does not match the " + blockUnits * (long) c.unit() + " bytes per rank on the other side");
        }
    }

    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                        int[] displs, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c ->
                gathervCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** In place at the root. */
    public void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c ->
                gathervCall(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** At a rank other than the root, which receives nothing. */
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c ->
                gathervCall(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root));
    }

    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                            int[] displs, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c ->
                gathervCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** In place at the root. */
    public Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c ->
                gathervCall(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** At a rank other than the root, which receives nothing. */
    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c ->
                gathervCall(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root));
    }

    private CollCall gathervCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                 int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.root(root);
        boolean isRoot = c.isRoot(root);
        boolean inPlace = isRoot && sendbuf == null;
        c.types(inPlace ? null : sendtype, isRoot ? recvtype : null);
        int[] counts = null;
        int[] ds = null;
        MemorySegment recv = null;
        if (isRoot) {
            counts = c.units(recvcount, recvtype, "receive counts");
            ds = c.units(displs, recvtype, "displacements");
            recv = c.recv(recvbuf, Collectives.span(recvcount, displs), recvtype);
        }
        int own = inPlace ? counts[rank] : c.units(sendcount, sendtype);
        MemorySegment send = inPlace ? null : c.send(sendbuf, sendcount, sendtype);
        if (isRoot && !inPlace && own != counts[rank]) {
            checkSignature(c, counts[rank], sendcount, sendtype, "send");
        }
        return new CollCall(send, recv, own, null, null, counts, ds, c.unit(), root, null, c.tag());
    }

    public void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                        Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatter", SCATTER, c ->
                scatterCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** In place at the root: it keeps its block in {@code buf}. */
    public void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        runCollective("MPI_Scatter", SCATTER, c -> inPlaceScatterCall(c, buf, count, type, root));
    }

    public Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                            Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatter", SCATTER, c ->
                scatterCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    public Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Iscatter", SCATTER, c -> inPlaceScatterCall(c, buf, count, type, root));
    }

    /** Scatter in place: the root keeps its block in {@code buf}; the others receive into it. */
    private CollCall inPlaceScatterCall(Collectives c, Object buf, int count, Datatype type, int root)
            throws MPIException {
        return c.isRoot(root) ? scatterCall(c, buf, count, type, null, count, type, root)
                : scatterCall(c, null, count, type, buf, count, type, root);
    }

    private CollCall scatterCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                 int recvcount, Datatype recvtype, int root) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.root(root);
        boolean isRoot = c.isRoot(root);
        boolean inPlace = isRoot && recvbuf == null;
        c.types(isRoot ? sendtype : null, inPlace ? null : recvtype);
        int block = inPlace ? c.units(sendcount, sendtype) : c.units(recvcount, recvtype);
        MemorySegment send = null;
        if (isRoot) {
            checkSignature(c, block, sendcount, sendtype, "send");
            send = c.send(sendbuf, (long) sendcount * size(), sendtype);
        }
        MemorySegment recv = inPlace ? null : c.recv(recvbuf, recvcount, recvtype);
        return collCall(send, recv, block, c.unit(), root, null, c.tag());
    }

    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                         int recvcount, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c ->
                scattervCall(c, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** In place at the root. */
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c ->
                scattervCall(c, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root));
    }

    /** At a rank other than the root, which sends nothing. */
    public void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c ->
                scattervCall(c, null, null, null, recvtype, recvbuf, recvcount, recvtype, root));
    }

    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
                             int recvcount, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c ->
                scattervCall(c, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** In place at the root. */
    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c ->
                scattervCall(c, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root));
    }

    /** At a rank other than the root, which sends nothing. */
    public Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c ->
                scattervCall(c, null, null, null, recvtype, recvbuf, recvcount, recvtype, root));
    }

    private CollCall scattervCall(Collectives c, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                                  Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.root(root);
        boolean isRoot = c.isRoot(root);
        boolean inPlace = isRoot && recvbuf == null;
        c.types(isRoot ? sendtype : null, inPlace ? null : recvtype);
        int[] counts = null;
        int[] ds = null;
        MemorySegment send = null;
        if (isRoot) {
            counts = c.units(sendcount, sendtype, "send counts");
            ds = c.units(displs, sendtype, "displacements");
            send = c.send(sendbuf, Collectives.span(sendcount, displs), sendtype);
        }
        int own = inPlace ? counts[rank] : c.units(recvcount, recvtype);
        if (isRoot && !inPlace && own != counts[rank]) {
            checkSignature(c, counts[rank], recvcount, recvtype, "receive");
        }
        MemorySegment recv = inPlace ? null : c.recv(recvbuf, recvcount, recvtype);
        return new CollCall(send, recv, own, null, null, counts, ds, c.unit(), root, null, c.tag());
    }

    public void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                          Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgather", ALLGATHER, c ->
                allGatherCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /** In place: each rank's block is already in {@code buf}. */
    public void allGather(Object buf, int count, Datatype type) throws MPIException {
        runCollective("MPI_Allgather", ALLGATHER, c -> allGatherCall(c, null, count, type, buf, count, type));
    }

    public Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                              Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgather", ALLGATHER, c ->
                allGatherCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return startCollective("MPI_Iallgather", ALLGATHER, c -> allGatherCall(c, null, count, type, buf, count, type));
    }

    private CollCall allGatherCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                   int recvcount, Datatype recvtype) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(sendbuf == null ? null : sendtype, recvtype);
        int block = c.units(recvcount, recvtype);
        MemorySegment send = null;
        if (sendbuf != null) {
            checkSignature(c, block, sendcount, sendtype, "send");
            send = c.send(sendbuf, sendcount, sendtype);
        }
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, (long) recvcount * size(), recvtype)
                : c.recv(recvbuf, (long) recvcount * size(), recvtype);
        return collCall(send, recv, block, c.unit(), 0, null, c.tag());
    }

    public void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                           int[] displs, Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgatherv", ALLGATHERV, c ->
                allGathervCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /** In place. */
    public void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgatherv", ALLGATHERV, c ->
                allGathervCall(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype));
    }

    public Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                               int[] displs, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgatherv", ALLGATHERV, c ->
                allGathervCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /** In place. */
    public Request iAllGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgatherv", ALLGATHERV, c ->
                allGathervCall(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype));
    }

    private CollCall allGathervCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                    int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(sendbuf == null ? null : sendtype, recvtype);
        int[] counts = c.units(recvcount, recvtype, "receive counts");
        int[] ds = c.units(displs, recvtype, "displacements");
        MemorySegment send = null;
        if (sendbuf != null) {
            checkSignature(c, counts[rank], sendcount, sendtype, "send");
            send = c.send(sendbuf, sendcount, sendtype);
        }
        long span = Collectives.span(recvcount, displs);
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, span, recvtype) : c.recv(recvbuf, span, recvtype);
        return new CollCall(send, recv, counts[rank], null, null, counts, ds, c.unit(), 0, null, c.tag());
    }

    public void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                         Datatype recvtype) throws MPIException {
        runCollective("MPI_Alltoall", ALLTOALL, c ->
                allToAllCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                             Datatype recvtype) throws MPIException {
        return startCollective("MPI_Ialltoall", ALLTOALL, c ->
                allToAllCall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    private CollCall allToAllCall(Collectives c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                  int recvcount, Datatype recvtype) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(sendbuf == null ? null : sendtype, recvtype);
        int block = c.units(recvcount, recvtype);
        MemorySegment send = null;
        if (sendbuf != null) {
            checkSignature(c, block, sendcount, sendtype, "send");
            send = c.send(sendbuf, (long) sendcount * size(), sendtype);
        }
        long all = (long) recvcount * size();
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, all, recvtype) : c.recv(recvbuf, all, recvtype);
        return collCall(send, recv, block, c.unit(), 0, null, c.tag());
    }

    public void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                          int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        runCollective("MPI_Alltoallv", ALLTOALLV, c ->
                allToAllvCall(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype));
    }

    public Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf,
                              int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Ialltoallv", ALLTOALLV, c ->
                allToAllvCall(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    private CollCall allToAllvCall(Collectives c, Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                   Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(sendbuf == null ? null : sendtype, recvtype);
        int[] counts = c.units(recvcount, recvtype, "receive counts");
        int[] ds = c.units(rdispls, recvtype, "receive displacements");
        int[] sendCounts = null;
        int[] sendDispls = null;
        MemorySegment send = null;
        if (sendbuf != null) {
            sendCounts = c.units(sendcount, sendtype, "send counts");
            sendDispls = c.units(sdispls, sendtype, "send displacements");
            send = c.send(sendbuf, Collectives.span(sendcount, sdispls), sendtype);
        }
        long span = Collectives.span(recvcount, rdispls);
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, span, recvtype) : c.recv(recvbuf, span, recvtype);
        return new CollCall(send, recv, 0, sendCounts, sendDispls, counts, ds, c.unit(), 0, null, c.tag());
    }

    public void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Collectives c = enterCollective("MPI_Reduce");
        try {
            c.run(REDUCE, reductionCall(c, sendbuf, recvbuf, count, type, op, root, true));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure("MPI_Reduce", e);
        } finally {
            c.exit();
        }
    }

    /** In place at the root: its operand is in {@code buf}, which receives the result. */
    public void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        runCollective("MPI_Reduce", REDUCE, c -> inPlaceReduceCall(c, buf, count, type, op, root));
    }

    public Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return startCollective("MPI_Ireduce", REDUCE, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, root, true));
    }

    public Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return startCollective("MPI_Ireduce", REDUCE, c -> inPlaceReduceCall(c, buf, count, type, op, root));
    }

    public void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        Collectives c = enterCollective("MPI_Allreduce");
        try {
            c.run(ALLREDUCE, reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException e) {
            throw failure("MPI_Allreduce", e);
        } finally {
            c.exit();
        }
    }

    /** In place: each rank's operand is in {@code buf}, which receives the result. */
    public void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        allReduce(null, buf, count, type, op);
    }

    public Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iallreduce", ALLREDUCE, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    public Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iallreduce", ALLREDUCE, c ->
                reductionCall(c, null, buf, count, type, op, 0, false));
    }

    /** Reduce in place: the root's operand is in {@code buf}, which receives the result. */
    private CollCall inPlaceReduceCall(Collectives c, Object buf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return c.isRoot(root) ? reductionCall(c, null, buf, count, type, op, root, true)
                : reductionCall(c, buf, null, count, type, op, root, true);
    }

    /**
     * A reduction's call: operands and result of {@code count} elements (for reduce, the result
     * only at the root). Reductions always count in elements: the operation reads them.
     */
    final CollCall reductionCall(Collectives c, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                                 int root, boolean rooted) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(type);
        if (rooted) {
            c.root(root);
        }
        if (type != null && type.isComplex() && op != MPI.SUM) {
            throw new MPIException(MPI.ERR_OP, "JMCA reduces complex types with MPI.SUM only, not " + op);
        }
        // a derived type's operands are its primitives, packed one after another
        Datatype primitive = type != null && type.isDerived() ? type.primitive() : type;
        Reduction reduction = c.op(op, primitive);
        boolean receives = !rooted || c.isRoot(root);
        MemorySegment send = sendbuf == null ? null : c.send(sendbuf, count, type);
        MemorySegment recv = !receives ? null
                : sendbuf == null ? c.inOut(recvbuf, count, type) : c.recv(recvbuf, count, type);
        int elements = primitive == type ? count : Math.multiplyExact(count, type.size() / primitive.size());
        return collCall(send, recv, elements, primitive.size(), root, reduction, c.tag());
    }

    public void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        runCollective("MPI_Reduce_scatter", REDUCE_SCATTER, c ->
                reduceScatterCall(c, sendbuf, recvbuf, recvcounts, type, op));
    }

    /** In place: {@code buf} holds the whole operand vector and receives this rank's block at its start. */
    public void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Reduce_scatter", REDUCE_SCATTER, c -> reduceScatterCall(c, null, buf, counts, type, op));
    }

    public Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return startCollective("MPI_Ireduce_scatter", REDUCE_SCATTER, c ->
                reduceScatterCall(c, sendbuf, recvbuf, recvcounts, type, op));
    }

    public Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Ireduce_scatter", REDUCE_SCATTER, c ->
                reduceScatterCall(c, null, buf, counts, type, op));
    }

    private CollCall reduceScatterCall(Collectives c, Object sendbuf, Object recvbuf, int[] recvcounts,
                                       Datatype type, Op op) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(type);
        int[] counts = c.units(recvcounts, type, "receive counts");
        long total = Arrays.stream(counts).asLongStream().sum();
        Reduction reduction = c.op(op, type);
        MemorySegment send = sendbuf == null ? null : c.send(sendbuf, total, type);
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, total, type) : c.recv(recvbuf, counts[rank], type);
        return new CollCall(send, recv, counts[rank], null, null, counts, null, type.size(), 0, reduction, c.tag());
    }

    public void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        runCollective("MPI_Reduce_scatter_block", REDUCE_SCATTER_BLOCK, c ->
                reduceScatterBlockCall(c, sendbuf, recvbuf, recvcount, type, op));
    }

    /** In place: {@code buf} holds size × count operands and receives this rank's block at its start. */
    public void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Reduce_scatter_block", REDUCE_SCATTER_BLOCK, c ->
                reduceScatterBlockCall(c, null, buf, count, type, op));
    }

    public Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return startCollective("MPI_Ireduce_scatter_block", REDUCE_SCATTER_BLOCK, c ->
                reduceScatterBlockCall(c, sendbuf, recvbuf, recvcount, type, op));
    }

    public Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Ireduce_scatter_block", REDUCE_SCATTER_BLOCK, c ->
                reduceScatterBlockCall(c, null, buf, count, type, op));
    }

    private CollCall reduceScatterBlockCall(Collectives c, Object sendbuf, Object recvbuf, int count, Datatype type,
                                            Op op) throws MPIException {
        Collectives.distinct(sendbuf, recvbuf);
        c.types(type);
        Reduction reduction = c.op(op, type);
        long total = (long) count * size();
        MemorySegment send = sendbuf == null ? null : c.send(sendbuf, total, type);
        MemorySegment recv = sendbuf == null ? c.inOut(recvbuf, total, type) : c.recv(recvbuf, count, type);
        return collCall(send, recv, count, type.size(), 0, reduction, c.tag());
    }

    /** Combines {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} locally, as MPI_Reduce_local. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "the operation is null");
        }
        Reduction reduction = op.bind(type);
        MemorySegment in = UserBuffer.of(inBuf, count, type, false).segment();
        UserBuffer inOut = UserBuffer.of(inOutBuf, count, type, true);
        MemorySegment.copy(UserBuffer.of(inOutBuf, count, type, false).segment(), 0, inOut.segment(), 0,
                inOut.segment().byteSize());
        reduction.apply(in, inOut.segment(), count);
        if (inOut.afterReceive() != null) {
            inOut.afterReceive().run();
        }
    }
}
