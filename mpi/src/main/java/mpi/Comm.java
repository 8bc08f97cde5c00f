package mpi;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.jmca.rte.WireUpException;
import org.jmca.runtime.Communicator;
import org.jmca.runtime.ContextAgreement;
import org.jmca.runtime.Intercommunicators;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.JobRuntime;
import org.jmca.runtime.Keyvals;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.Packing;
import org.jmca.runtime.UserBuffer;

/**
 * A communicator: a group of processes, their ranks in it, and a context that keeps its
 * messages apart from every other communicator's. Point-to-point operations live here; the
 * collectives, which a program calls as this class's methods, in the package's own superclass
 * {@code CommCollectives}; communicator creation in {@link Intracomm}.
 *
 * <p>Every operation checks its arguments and reports a bad one as an {@link MPIException} of
 * the right class, through the communicator's error handler (by default
 * {@link MPI#ERRORS_ARE_FATAL}: print and abort the job).
 */
public non-sealed class Comm extends CommCollectives implements Freeable, Cloneable {
    /** {@link Intracomm#splitType}: the ranks that share memory, those of one host. */
    public static final int TYPE_SHARED = 0;

    /**
     * The runtime's side, which runs the calls (one compiled copy for every thread rank): the
     * context, the ranks, the coll modules; null until the communicator is bound.
     */
    Communicator core;
    /** How messages name the communicator (MPI_COMM_WORLD, "MPI_COMM_WORLD split(1)", ...). */
    private final String name;
    /** The name the program gave it (MPI_Comm_set_name); the predefined ones have theirs. */
    private String userName;
    private Map<String, String> infoHints = Map.of();
    /** The program's attributes, by keyval. */
    private final Map<Integer, Object> attributes = new HashMap<>();
    private static final Keyvals KEYVALS = new Keyvals("Comm", 64);
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
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
    }

    /**
     * Makes this an intercommunicator between the local group (this process's) and the remote
     * one, which point-to-point calls name and collectives go to (coll/inter's).
     */
    final void bindInter(JobRuntime runtime, int context, int[] local, int[] remote) throws MPIException {
        bindRanks(runtime, context, local, remote);
    }

    private void bindRanks(JobRuntime runtime, int context, int[] local, int[] remote) throws MPIException {
        this.core = new Communicator(runtime, name, context, local, remote, infoHints);
        try {
            List<String> selected = core.selectCollectives();
            if (runtime.collVerbosity >= 1 && core.rank == 0 && (local.length > 1 || runtime.job.rank() == 0)) {
                selected.forEach(line -> core.port.log("coll: " + line));
            }
        } catch (McaException e) {
            throw new MPIException(MPI.ERR_OTHER, e.getMessage());
        }
    }

    /** The runtime's side of the communicator, once checked usable (see {@link #runtime()}). */
    @Override
    final Communicator core() throws MPIException {
        runtime();
        return core;
    }

    final JobRuntime runtime() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_COMM, name + " is MPI_COMM_NULL (freed, or what split gave a rank of"
                    + " colour MPI.UNDEFINED)");
        }
        if (core == null && idup != null && !MPI.finalized()) {
            throw new MPIException(MPI.ERR_COMM, name + " is not made yet: wait for its iDup's request"
                    + " (getRequest) first");
        }
        if (core == null || MPI.finalized()) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is " + (MPI.finalized() ? "finalized" : "not initialized")
                    + ": call MPI.Init first" + (MPI.finalized() ? " (and nothing after MPI.Finalize)" : ""));
        }
        return core.runtime;
    }

    // ---- errors -----------------------------------------------------------------------------

    /** An MPI operation's body. */
    interface Operation<T> {
        T run(JobRuntime runtime) throws MPIException;
    }

    /** Runs an operation inside the library; failures of any kind go through the error handler. */
    @Override
    final <T> T call(String operation, Operation<T> body) throws MPIException {
        try {
            JobRuntime rt = runtime();
            rt.enter();
            try {
                return body.run(rt);
            } finally {
                rt.exit();
            }
        } catch (MPIException | McaException | WireUpException | UncheckedIOException | MpiError e) {
            throw failure(operation, e);
        }
    }

    /** A failure of any kind as the MPIException the error handler lets through (or it aborts). */
    @Override
    final MPIException failure(String operation, Exception e) {
        return handleError(operation, e instanceof MPIException m ? m
                : e instanceof MpiError r ? new MPIException(r.errorClass(), r.getMessage())
                : new MPIException(MPI.ERR_OTHER, e.getMessage()));
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
        return call("MPI_Comm_rank", rt -> core.rank);
    }

    public int getSize() throws MPIException {
        return call("MPI_Comm_size", rt -> core.size());
    }

    final int rank() {
        return core.rank;
    }

    final int size() {
        return core.size();
    }

    public Group getGroup() throws MPIException {
        return call("MPI_Comm_group", rt -> new Group(core.jobRanks, rt.job.rank()));
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
            copy.idup = new Request(this, new ContextAgreement(core, rt, context -> {
                try {
                    if (inter()) {
                        copy.bindInter(rt, context, core.jobRanks, core.peers);
                    } else {
                        copy.bind(rt, context, core.jobRanks, hints);
                    }
                    inherit(copy);
                } catch (MPIException e) {
                    throw new McaException(e.getMessage(), e);
                }
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
        copy.bind(rt, agreeOnContext(rt, this), core.jobRanks, hints);
    }

    /** A new context agreed by every rank of {@code parent}, the largest any proposes ({@link JobRuntime#agree}). Collective. */
    static int agreeOnContext(JobRuntime rt, Comm parent) throws MPIException {
        return rt.agree(value -> InternalCollectives.allreduceMax(parent.core, value));
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
        return core.inter();
    }

    /**
     * {@code MPI_Intercomm_create} as Open MPI's bindings define it: called on the <em>peer</em>
     * communicator, the bridge between the two leaders. An intercommunicator between {@code
     * localComm}'s group and another group, made by both groups at once: {@code localLeader} (a
     * rank of {@code localComm}) and {@code remoteLeader} (the other leader's rank in this
     * communicator, read at the local leader only) exchange their groups here with {@code tag}.
     * Collective over both groups.
     */
    public Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) throws MPIException {
        if (localComm == null) {
            throw handleError("MPI_Intercomm_create", new MPIException(MPI.ERR_COMM, "the local communicator is null"
                    + " (createIntercomm is called on the peer communicator and given the local one)"));
        }
        return localComm.intercommOver(this, localLeader, remoteLeader, tag);
    }

    /** MPI_Intercomm_create with this communicator as the local one and {@code bridge} as the peer. */
    private Intercomm intercommOver(Comm bridge, int localLeader, int remoteLeader, int tag) throws MPIException {
        return call("MPI_Intercomm_create", rt -> Intercomm.of(this, rt, Intercommunicators.create(rt, core,
                localLeader, () -> MPIException.unchecked(bridge::core), remoteLeader, tag)));
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
        MPIException.mapped(() -> KEYVALS.free(keyval));
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
     * (every rank can do I/O); MPI.WTIME_IS_GLOBAL 0; MPI.APPNUM the program's number in a job
     * spawnMultiple started, else 0; MPI.UNIVERSE_SIZE the job's size; MPI.LASTUSEDCODE
     * MPI.ERR_LASTCODE.
     */
    public Object getAttr(int keyval) throws MPIException {
        return call("MPI_Comm_get_attr", rt -> switch (keyval) {
            case MPI.TAG_UB -> MPI.MAX_TAG;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL -> 0;
            // the program's number in a job spawnMultiple started; 0 in any other
            case MPI.APPNUM -> Integer.getInteger(org.jmca.rte.launcher.AppContexts.APP_NUMBER, 0);
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
            core.coll().modules().forEach(CollModule::free);
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
        MPI.abortJob(errorcode, "MPI_Abort(" + name + ", " + errorcode + ") called by rank "
                + (core != null ? core.rank : 0));
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- argument checks ----------------------------------------------------------------------

    /** The job rank of a destination, or -1 for MPI.PROC_NULL. */
    final int destination(int dest) {
        return core.destination(dest);
    }

    /** The job rank of a source, PmlModule.ANY_SOURCE, or -2 for MPI.PROC_NULL. */
    final int source(int source) {
        return core.source(source);
    }

    private String peerNames() {
        return core.peerNames();
    }

    static void checkSendTag(int tag) {
        Communicator.checkSendTag(tag);
    }

    static void checkRecvTag(int tag) {
        Communicator.checkRecvTag(tag);
    }

    /** A PML status in this communicator's terms (source as a rank here). */
    final Status toStatus(PmlStatus s) {
        if (s.cancelled()) {
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, true);
        }
        int source = s.source() >= 0 ? core.peerRankOf(s.source()) : MPI.ANY_SOURCE;
        return new Status(source, s.tag() < 0 ? MPI.ANY_TAG : s.tag(), s.truncated() ? MPI.ERR_TRUNCATE : MPI.SUCCESS,
                s.byteCount(), false);
    }

    static Status procNullStatus() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
    }

    // ---- starting operations -------------------------------------------------------------------

    final Request startSend(Object buf, int count, Datatype type, int dest, int tag, SendMode mode) {
        return started(core.startSend(buf, count, Datatype.use(type), dest, tag, mode));
    }

    final Request startRecv(Object buf, int count, Datatype type, int source, int tag) {
        return started(core.startRecv(buf, count, Datatype.use(type), source, tag));
    }

    @Override
    final Request started(Communicator.Started started) {
        return started.request() == null ? Request.completed(this, procNullStatus())
                : new Request(this, started.request(), started.afterReceive());
    }

    private Request startBuffered(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        checkSendTag(tag);
        int to = destination(dest);
        UserBuffer data = Datatype.buffer(buf, count, type, false);
        if (to < 0) {
            return Request.completed(this, procNullStatus());
        }
        MPI.bufferedSends().send(core, data.segment(), to, tag);
        return Request.completed(this, new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, false));
    }

    // ---- blocking point-to-point ------------------------------------------------------------

    /**
     * A blocking send: the runtime's, without a request or status (an eager send usually
     * completes at once). Written out without {@link #call}'s lambda: this is the hottest path of all.
     */
    private void blockingSend(String operation, Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        try {
            core().send(buf, count, Datatype.use(type), dest, tag, mode);
        } catch (MPIException | McaException | WireUpException | UncheckedIOException | MpiError e) {
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

    /** A blocking receive: the runtime's, without a request. */
    public Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        try {
            PmlStatus status = core().recv(buf, count, Datatype.use(type), source, tag);
            return status == null ? procNullStatus() : checkTruncation(toStatus(status));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException | MpiError e) {
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
            UserBuffer original = Datatype.buffer(buf, count, type, false);
            byte[] copy = original.segment().toArray(ValueLayout.JAVA_BYTE);
            Request receive = startRecv(buf, count, type, source, recvtag);
            int to = destination(dest);
            checkSendTag(sendtag);
            if (to >= 0) {
                PmlRequest send = rt.pml.isend(MemorySegment.ofArray(copy), to, sendtag, core.context,
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

    // ---- packing ---------------------------------------------------------------------------

    /**
     * Packs {@code incount} elements of {@code type} from {@code inbuf} into {@code outbuf} from
     * byte {@code position}; returns the position after them.
     */
    public int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return call("MPI_Pack", rt -> Packing.pack(inbuf, incount, Datatype.use(type), outbuf, position));
    }

    /**
     * Unpacks {@code outcount} elements of {@code type} into {@code outbuf} from {@code inbuf} at
     * byte {@code position}; returns the position after them.
     */
    public int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        return call("MPI_Unpack", rt -> Packing.unpack(inbuf, position, outbuf, outcount, Datatype.use(type)));
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

    // ---- probing ---------------------------------------------------------------------------

    /** Waits until a message from {@code source} with {@code tag} can be received; returns its status. */
    public Status probe(int source, int tag) throws MPIException {
        return call("MPI_Probe", rt -> {
            PmlStatus found = core.probe(source, tag);
            return found == null ? procNullStatus() : toStatus(found);
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
            PmlStatus found = rt.pml.iprobe(from, Communicator.pmlTag(tag), core.context);
            return found == null ? null : toStatus(found);
        });
    }

    /** Combines {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} locally, as MPI_Reduce_local. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "the operation is null");
        }
        Reduction reduction = op.bind(type);
        MemorySegment in = Datatype.buffer(inBuf, count, type, false).segment();
        UserBuffer inOut = Datatype.buffer(inOutBuf, count, type, true);
        MemorySegment.copy(Datatype.buffer(inOutBuf, count, type, false).segment(), 0, inOut.segment(), 0,
                inOut.segment().byteSize());
        reduction.apply(in, inOut.segment(), count);
        if (inOut.afterReceive() != null) {
            inOut.afterReceive().run();
        }
    }
}
