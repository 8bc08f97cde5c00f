package mpi;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.util.Arrays;
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
public class Comm {
    private JobRuntime runtime;
    /** Context of point-to-point messages; context + 1 carries this communicator's collectives. */
    int context;
    /** The job rank of each rank of this communicator. */
    int[] jobRanks;
    /** The rank in this communicator of each job rank, or -1. */
    private int[] rankOfJobRank;
    private int rank;
    private final String name;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private boolean freed;

    Comm(String name) {
        this.name = name;
    }

    /** Makes the communicator usable: called at Init for the predefined ones, at creation for the others. */
    final void bind(JobRuntime runtime, int context, int[] jobRanks) {
        this.runtime = runtime;
        this.context = context;
        this.jobRanks = jobRanks.clone();
        this.rankOfJobRank = new int[runtime.job.size()];
        Arrays.fill(rankOfJobRank, -1);
        for (int r = 0; r < jobRanks.length; r++) {
            rankOfJobRank[jobRanks[r]] = r;
        }
        this.rank = rankOfJobRank[runtime.job.rank()];
    }

    final JobRuntime runtime() throws MPIException {
        if (runtime == null || MPI.finalized()) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is " + (MPI.finalized() ? "finalized" : "not initialized")
                    + ": call MPI.Init first" + (MPI.finalized() ? " (and nothing after MPI.Finalize)" : ""));
        }
        if (freed) {
            throw new MPIException(MPI.ERR_COMM, name + " has been freed");
        }
        return runtime;
    }

    // ---- errors -----------------------------------------------------------------------------

    /** An MPI operation's body. */
    interface Operation<T> {
        T run(JobRuntime runtime) throws MPIException;
    }

    /** Runs an operation; failures of any kind go through the error handler. */
    final <T> T call(String operation, Operation<T> body) throws MPIException {
        try {
            return body.run(runtime());
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
        return call("MPI_Comm_group", rt -> new Group(jobRanks, rank));
    }

    /** MPI.IDENT for the same communicator, MPI.CONGRUENT for the same ranks in the same order, etc. */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1 == comm2) {
            return MPI.IDENT;
        }
        return Group.compare(comm1.getGroup(), comm2.getGroup()) == MPI.IDENT ? MPI.CONGRUENT
                : Group.compare(comm1.getGroup(), comm2.getGroup());
    }

    /** The value of a predefined attribute: MPI.TAG_UB gives the largest tag. */
    public Object getAttr(int keyval) throws MPIException {
        return call("MPI_Comm_get_attr", rt -> {
            if (keyval == MPI.TAG_UB) {
                return MPI.MAX_TAG;
            }
            throw new MPIException(MPI.ERR_ARG, "unknown attribute key " + keyval);
        });
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
            return null;
        });
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
        if (dest < 0 || dest >= jobRanks.length) {
            throw new MPIException(MPI.ERR_RANK, "invalid rank " + dest + ": " + name + " has ranks 0.."
                    + (jobRanks.length - 1) + " (or MPI.PROC_NULL)");
        }
        return jobRanks[dest];
    }

    /** The job rank of a source, PmlModule.ANY_SOURCE, or -2 for MPI.PROC_NULL. */
    final int source(int source) throws MPIException {
        if (source == MPI.ANY_SOURCE) {
            return PmlModule.ANY_SOURCE;
        }
        if (source == MPI.PROC_NULL) {
            return -2;
        }
        if (source < 0 || source >= jobRanks.length) {
            throw new MPIException(MPI.ERR_RANK, "invalid source rank " + source + ": " + name + " has ranks 0.."
                    + (jobRanks.length - 1) + " (or MPI.ANY_SOURCE, MPI.PROC_NULL)");
        }
        return jobRanks[source];
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
        int source = s.source() >= 0 ? rankOfJobRank[s.source()] : MPI.ANY_SOURCE;
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
            MemorySegment data = type == MPI.BOOLEAN ? UserBuffer.of(buf, count, type, false).segment()
                    : UserBuffer.segment(buf, count, type, false);
            if (to >= 0) {
                PmlRequest request = rt.pml.isend(data, to, tag, context, mode);
                if (!request.isComplete()) {
                    rt.progress.waitUntil(request);
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
            UserBuffer packed = type == MPI.BOOLEAN ? UserBuffer.of(buf, count, type, true) : null;
            MemorySegment data = packed != null ? packed.segment() : UserBuffer.segment(buf, count, type, true);
            if (from == -2) {
                return procNullStatus();
            }
            PmlRequest request = rt.pml.irecv(data, from, tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag, context);
            if (!request.isComplete()) {
                rt.progress.waitUntil(request);
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

    // ---- synchronization --------------------------------------------------------------------

    /** Returns once every rank of the communicator has called it. */
    public void barrier() throws MPIException {
        call("MPI_Barrier", rt -> {
            InternalCollectives.barrier(this);
            return null;
        });
    }
}
