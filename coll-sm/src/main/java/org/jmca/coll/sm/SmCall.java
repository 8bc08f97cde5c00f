package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;

/**
 * One collective call on shared memory, advanced each time it is tested: it waits until it may
 * begin, writes this rank's part into its own area and raises its flag, then waits for the flags
 * it needs and reads the others' parts. Every algorithm is flat: a rank reads straight from the
 * areas of the ranks whose data it needs.
 *
 * <p>Reductions combine in rank order, whatever the arrival order: {@code c0 op (c1 op (... op
 * cn-1))}, built from the last rank down, so every rank gets the same bits in every run and a
 * non-commutative operation sees its operands in rank order.
 */
final class SmCall implements CollRequest {
    private static final int BEGIN = 0;
    private static final int READ = 1;
    private static final int DONE = 2;
    /**
     * Polls of a flag before a blocking call's test gives the progress engine a turn, where ranks
     * have a core each; a non-blocking call's test (from progress callbacks and MPI_Test), and any
     * test on an oversubscribed host, where the engine yields between turns, polls once.
     */
    private static final int SPINS = 64;

    private final SmCollModule m;
    private final int spins;
    private CollFunction function;
    private CollCall call;
    private long seq;
    /** The bytes this rank writes into its area in this call (see {@link SmCollModule#slotBytesFor}). */
    private long bytes;
    private int phase = DONE;
    /** The ranks below this one have been seen to arrive. */
    private int seen;

    SmCall(SmCollModule module, boolean spin) {
        this.m = module;
        this.spins = spin ? SPINS : 1;
    }

    SmCall begin(CollFunction function, CollCall call, long seq) {
        this.function = function;
        this.call = call;
        this.seq = seq;
        this.bytes = m.slotBytesFor(function, call);
        this.phase = BEGIN;
        this.seen = 0;
        test();
        return this;
    }

    @Override
    public boolean test() {
        if (phase == BEGIN) {
            if (!m.ready(seq) || (writes() && !m.writable(seq, bytes))) {
                return false;
            }
            write();
            phase = READ;
        }
        if (phase == READ) {
            if (!read()) {
                return false;
            }
            m.completed(seq, function == CollFunction.BARRIER || function == CollFunction.ALLREDUCE
                    || function == CollFunction.ALLGATHER || function == CollFunction.ALLTOALL
                    || function == CollFunction.REDUCE_SCATTER_BLOCK);
            phase = DONE;
            call = null;
        }
        return true;
    }

    private boolean isRoot() {
        return m.rank == call.root();
    }

    /** Whether this rank writes into its areas in this call. */
    private boolean writes() {
        return switch (function) {
            case BARRIER, EXSCAN -> true;
            case BCAST, SCATTER -> isRoot();
            case GATHER -> !isRoot();
            default -> true;
        };
    }

    private long block() {
        return call.bytes(call.count());
    }

    /** The buffer holding this rank's contribution: the send buffer, or in place the receive buffer. */
    private MemorySegment own() {
        return call.send() != null ? call.send() : call.recv();
    }

    private void write() {
        switch (function) {
            case BARRIER -> m.publish(seq);
            case BCAST -> {
                if (isRoot()) {
                    copyIn(call.recv(), bytes);
                }
            }
            case GATHER -> {
                if (isRoot()) {
                    if (call.send() != null) {
                        MemorySegment.copy(call.send(), 0, call.recv(), m.rank * bytes, bytes);
                    }
                } else {
                    copyIn(call.send(), bytes);
                }
            }
            case SCATTER -> {
                if (isRoot()) {
                    copyIn(call.send(), bytes);
                    if (call.recv() != null) {
                        MemorySegment.copy(call.send(), m.rank * block(), call.recv(), 0, block());
                    }
                }
            }
            case ALLGATHER -> {
                MemorySegment from = call.send() != null ? call.send() : call.recv().asSlice(m.rank * bytes, bytes);
                copyIn(from, bytes);
            }
            case REDUCE -> {
                MemorySegment from = own();
                MemorySegment.copy(from, 0, m.area(m.rank, seq, bytes), 0, bytes);
                if (!isRoot()) {
                    m.publish(seq);
                }
            }
            default -> copyIn(own(), bytes);
        }
    }

    /** Copies this rank's part into its area and raises its flag. */
    private void copyIn(MemorySegment from, long bytes) {
        MemorySegment.copy(from, 0, m.area(m.rank, seq, bytes), 0, bytes);
        m.publish(seq);
    }

    /** Waits (for a while) until ranks {@code 0..limit-1} but this one have arrived. */
    private boolean arrivedBelow(int limit) {
        while (seen < limit) {
            if (seen != m.rank && !spinFor(seen)) {
                return false;
            }
            seen++;
        }
        return true;
    }

    private boolean spinFor(int r) {
        for (int i = 0; i < spins; i++) {
            if (m.arrived(r, seq)) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private boolean read() {
        long block = block();
        int root = call.root();
        switch (function) {
            case BARRIER -> {
                return arrivedBelow(m.size);
            }
            case BCAST -> {
                if (!isRoot()) {
                    if (!spinFor(root)) {
                        return false;
                    }
                    MemorySegment.copy(m.area(root, seq, bytes), 0, call.recv(), 0, bytes);
                }
            }
            case SCATTER -> {
                if (!isRoot()) {
                    if (!spinFor(root)) {
                        return false;
                    }
                    MemorySegment.copy(m.area(root, seq, bytes), m.rank * block, call.recv(), 0, block);
                }
            }
            case GATHER -> {
                if (isRoot()) {
                    if (!arrivedBelow(m.size)) {
                        return false;
                    }
                    for (int r = 0; r < m.size; r++) {
                        if (r != m.rank) {
                            MemorySegment.copy(m.area(r, seq, bytes), 0, call.recv(), r * block, block);
                        }
                    }
                }
            }
            case REDUCE -> {
                if (isRoot()) {
                    if (!arrivedBelow(m.size)) {
                        return false;
                    }
                    fold(m.size - 1, 0, bytes);
                }
            }
            case ALLREDUCE -> {
                if (!arrivedBelow(m.size)) {
                    return false;
                }
                fold(m.size - 1, 0, bytes);
            }
            case ALLGATHER -> {
                if (!arrivedBelow(m.size)) {
                    return false;
                }
                for (int r = 0; r < m.size; r++) {
                    if (r != m.rank || call.send() != null) {
                        MemorySegment.copy(m.area(r, seq, bytes), 0, call.recv(), r * block, block);
                    }
                }
            }
            case ALLTOALL -> {
                if (!arrivedBelow(m.size)) {
                    return false;
                }
                for (int r = 0; r < m.size; r++) {
                    MemorySegment.copy(m.area(r, seq, bytes), m.rank * block, call.recv(), r * block, block);
                }
            }
            case REDUCE_SCATTER_BLOCK -> {
                if (!arrivedBelow(m.size)) {
                    return false;
                }
                fold(m.size - 1, m.rank * block, bytes);
            }
            case SCAN -> {
                if (!arrivedBelow(m.rank)) {
                    return false;
                }
                fold(m.rank, 0, bytes);
            }
            case EXSCAN -> {
                if (!arrivedBelow(m.rank)) {
                    return false;
                }
                if (m.rank > 0) {
                    fold(m.rank - 1, 0, bytes);
                }
            }
            default -> throw new IllegalStateException("coll/sm does not serve " + function.id());
        }
        return true;
    }

    /**
     * The receive buffer's first block becomes {@code c0 op (c1 op (... op c_last))}, where
     * {@code c_r} is the block at {@code offset} of rank r's area.
     */
    private void fold(int last, long offset, long areaBytes) {
        long block = block();
        MemorySegment result = call.recv();
        MemorySegment.copy(m.area(last, seq, areaBytes), offset, result, 0, block);
        for (int r = last - 1; r >= 0; r--) {
            MemorySegment operand = m.area(r, seq, areaBytes);
            call.op().apply(offset == 0 ? operand : operand.asSlice(offset, block), result, call.count());
        }
    }
}
