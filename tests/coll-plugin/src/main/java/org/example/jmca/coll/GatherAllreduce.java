package org.example.jmca.coll;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.pml.PmlRequest;

/**
 * Allreduce as a small state machine: every rank sends its operand to rank 0, which reduces them
 * in rank order (so non-commutative operations work) and sends the result back.
 */
final class GatherAllreduce implements CollRequest {
    private final CollCommunicator comm;
    private final CollCall call;
    private final long bytes;
    private PmlRequest[] pending;
    private MemorySegment[] operands;
    private boolean resultSent;

    GatherAllreduce(CollCommunicator comm, CollCall call) {
        this.comm = comm;
        this.call = call;
        this.bytes = call.bytes(call.count());
        MemorySegment own = call.inPlace() ? copy(call.recv().asSlice(0, bytes)) : call.send().asSlice(0, bytes);
        int size = comm.size();
        if (comm.rank() != 0) {
            pending = new PmlRequest[] {
                comm.isend(own, 0, call.tag()), comm.irecv(call.recv().asSlice(0, bytes), 0, call.tag())};
            resultSent = true;
            return;
        }
        operands = new MemorySegment[size];
        operands[0] = own;
        pending = new PmlRequest[size - 1];
        for (int r = 1; r < size; r++) {
            operands[r] = MemorySegment.ofArray(new byte[(int) bytes]);
            pending[r - 1] = comm.irecv(operands[r], r, call.tag());
        }
    }

    private static MemorySegment copy(MemorySegment m) {
        MemorySegment c = MemorySegment.ofArray(new byte[(int) m.byteSize()]);
        c.copyFrom(m);
        return c;
    }

    @Override
    public boolean test() {
        for (PmlRequest request : pending) {
            if (!request.isComplete()) {
                return false;
            }
        }
        if (resultSent) {
            return true;
        }
        // rank 0, every operand in: result = a0 op (a1 op (... op a(n-1)))
        MemorySegment result = call.recv().asSlice(0, bytes);
        int last = comm.size() - 1;
        result.copyFrom(operands[last]);
        for (int r = last - 1; r >= 0; r--) {
            call.op().apply(operands[r], result, call.count());
        }
        pending = new PmlRequest[last];
        for (int r = 1; r <= last; r++) {
            pending[r - 1] = comm.isend(result, r, call.tag());
        }
        resultSent = true;
        return test();
    }
}
