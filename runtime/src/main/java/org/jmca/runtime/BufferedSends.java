package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * Buffered sends: each copies its message and completes at once; the copy counts against the
 * buffer the user attached until the message has left. Space is accounted as MPI does
 * (message size plus {@link #OVERHEAD}, {@code MPI.BSEND_OVERHEAD}), so a program that fits in Open MPI fits here.
 * Without an attached buffer, a message up to {@link #UNATTACHED_LIMIT} still goes (copied), as
 * Open MPI sends a small buffered message at once without needing the buffer; a larger one is an
 * MPI_ERR_BUFFER.
 */
public final class BufferedSends {
    /** Bytes a buffered send uses in the attached buffer beyond its message: MPI.BSEND_OVERHEAD. */
    public static final int OVERHEAD = 128;

    /** The largest buffered send without an attached buffer: Open MPI's eager size over tcp. */
    static final long UNATTACHED_LIMIT = 64 * 1024;

    private record Outstanding(PmlRequest request, long bytes) { }

    private byte[] attached;
    private long used;
    private final List<Outstanding> outstanding = new ArrayList<>();

    public void attach(byte[] buffer) {
        if (attached != null) {
            throw new MpiError(ErrorClass.BUFFER, "a buffer of " + attached.length
                    + " bytes is attached already; detach it first");
        }
        if (buffer == null) {
            throw new MpiError(ErrorClass.BUFFER, "the buffer to attach is null");
        }
        attached = buffer;
    }

    public byte[] detach(JobRuntime runtime) {
        if (attached == null) {
            throw new MpiError(ErrorClass.BUFFER, "no buffer is attached");
        }
        runtime.progress.waitUntil(() -> outstanding.stream().allMatch(o -> o.request().isComplete()));
        outstanding.clear();
        used = 0;
        byte[] buffer = attached;
        attached = null;
        return buffer;
    }

    /** Sends a copy of {@code data}; the send is complete for the caller when this returns. */
    public void send(Communicator comm, MemorySegment data, int jobRank, int tag) {
        reap();
        long need = data.byteSize() + OVERHEAD;
        if (attached == null && data.byteSize() > UNATTACHED_LIMIT) {
            throw new MpiError(ErrorClass.BUFFER, "a buffered send of " + data.byteSize() + " bytes needs a buffer:"
                    + " call MPI.attachBuffer first (without one, up to " + UNATTACHED_LIMIT + " bytes go at once)");
        }
        if (attached != null && used + need > attached.length) {
            throw new MpiError(ErrorClass.BUFFER, "the attached buffer of " + attached.length + " bytes has "
                    + (attached.length - used) + " free, but this buffered send needs " + need
                    + " (message plus MPI.BSEND_OVERHEAD)");
        }
        MemorySegment copy = MemorySegment.ofArray(data.toArray(ValueLayout.JAVA_BYTE));
        PmlRequest request = comm.runtime.pml.isend(copy, jobRank, tag, comm.context, SendMode.STANDARD);
        if (attached != null) {
            outstanding.add(new Outstanding(request, need));
            used += need;
        }
    }

    private void reap() {
        for (Iterator<Outstanding> it = outstanding.iterator(); it.hasNext(); ) {
            Outstanding o = it.next();
            if (o.request().isComplete()) {
                used -= o.bytes();
                it.remove();
            }
        }
    }
}
