package mpi;

import java.nio.Buffer;
import org.jmca.mca.pml.PmlMessage;
import org.jmca.mca.pml.PmlModule;
import org.jmca.runtime.UserBuffer;

/**
 * A message taken by a matched probe ({@link #mProbe}, {@link #imProbe}): no other receive or
 * probe can match it, so threads that probe and then receive cannot take each other's messages.
 * {@link #mRecv} or {@link #imRecv} receive it, after which the message is null again. A probe for
 * MPI.PROC_NULL gives the "no process" message, whose receive completes at once.
 */
public final class Message {
    private Comm comm;
    private PmlMessage taken;
    private boolean noProc;

    /** A null message (MPI_MESSAGE_NULL), to be filled by a probe. */
    public Message() {
    }

    public boolean isNull() {
        return taken == null && !noProc;
    }

    /** Whether a probe for MPI.PROC_NULL made this message (MPI_MESSAGE_NO_PROC). */
    public boolean isNoProc() {
        return noProc;
    }

    /** Waits for a message from {@code source} with {@code tag} on {@code comm} and takes it. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.call("MPI_Mprobe", rt -> {
            int from = prepare(source, tag, comm);
            if (from == -2) {
                return noProc();
            }
            PmlMessage[] found = new PmlMessage[1];
            int pmlTag = tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag;
            rt.progress.waitUntil(() -> (found[0] = rt.pml.improbe(from, pmlTag, comm.core.context)) != null);
            return take(found[0]);
        });
    }

    /** Takes a message from {@code source} with {@code tag} on {@code comm} if one is there; null if none. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return comm.call("MPI_Improbe", rt -> {
            int from = prepare(source, tag, comm);
            if (from == -2) {
                return noProc();
            }
            rt.progress.progress();
            PmlMessage found = rt.pml.improbe(from, tag == MPI.ANY_TAG ? PmlModule.ANY_TAG : tag, comm.core.context);
            return found == null ? null : take(found);
        });
    }

    /** Receives the message into {@code buf}; the message becomes null. */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Comm on = communicator("MPI_Mrecv");
        return on.call("MPI_Mrecv", rt -> start(buf, count, type).waitStatus());
    }

    /** Starts receiving the message into {@code buf}; the message becomes null at once. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        Comm on = communicator("MPI_Imrecv");
        return on.call("MPI_Imrecv", rt -> start(buf, count, type));
    }

    private int prepare(int source, int tag, Comm on) throws MPIException {
        if (!isNull()) {
            throw new MPIException(MPI.ERR_REQUEST, "this Message still holds a message: receive it first");
        }
        on.checkRecvTag(tag);
        comm = on;
        return on.source(source);
    }

    private Status noProc() {
        noProc = true;
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
    }

    private Status take(PmlMessage message) {
        taken = message;
        return comm.toStatus(message.status());
    }

    private Comm communicator(String operation) throws MPIException {
        if (isNull()) {
            throw MPI.COMM_WORLD.handleError(operation, new MPIException(MPI.ERR_REQUEST,
                    "the Message is null: no probe took a message for it (or it was received already)"));
        }
        return comm;
    }

    private Request start(Object buf, int count, Datatype type) throws MPIException {
        UserBuffer data = Datatype.buffer(buf, count, type, true);
        if (noProc) {
            noProc = false;
            return Request.completed(comm, new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false));
        }
        PmlMessage message = taken;
        taken = null;
        return new Request(comm, comm.runtime().pml.imrecv(message, data.segment()), data.afterReceive());
    }
}
