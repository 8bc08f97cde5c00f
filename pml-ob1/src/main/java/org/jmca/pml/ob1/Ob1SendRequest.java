package org.jmca.pml.ob1;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;

/** A send: its header goes out first (MATCH or RNDV), then, after the ACK, its fragments. */
final class Ob1SendRequest extends Ob1Request {
    /** Every eager send that the BTL took at once: complete, nothing to keep. */
    static final Ob1SendRequest SENT = completed();

    final MemorySegment data;
    final int dest;
    final int tag;
    final int context;
    final int seq;
    final SendMode mode;
    final Route route;

    /** Rendezvous state: bytes sent so far, bytes the receiver wants, its request id. */
    long sent;
    long wanted = -1;
    long recvId;
    /** The key under which the BTL exposed {@link #data} for the receiver's GET, or NOT_EXPOSED. */
    long exposedKey = org.jmca.mca.btl.BtlModule.NOT_EXPOSED;

    Ob1SendRequest(MemorySegment data, int dest, int tag, int context, int seq, SendMode mode, Route route) {
        this.data = data;
        this.dest = dest;
        this.tag = tag;
        this.context = context;
        this.seq = seq;
        this.mode = mode;
        this.route = route;
    }

    /** Eager when the whole message fits one MATCH fragment and nobody waits for the match. */
    boolean eager() {
        return mode == SendMode.STANDARD && Ob1Header.MATCH_LENGTH + data.byteSize() <= route.eagerLimit();
    }

    private static Ob1SendRequest completed() {
        Ob1SendRequest request = new Ob1SendRequest(MemorySegment.NULL, -1, 0, 0, 0, SendMode.STANDARD, null);
        request.complete();
        return request;
    }

    @Override
    public PmlStatus status() {
        return PmlStatus.EMPTY;
    }

    @Override
    public boolean cancel() {
        return false;
    }
}
