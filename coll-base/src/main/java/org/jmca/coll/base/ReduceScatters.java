package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jmca.mca.coll.CollCall;

/**
 * Reduce-scatter (per-rank counts) and reduce-scatter-block (one count), numbered as Open MPI's:
 * reduce_scatter 1 non-overlapping, 2 recursive halving, 3 ring, 4 butterfly;
 * reduce_scatter_block 1 basic linear, 2 recursive doubling, 3 recursive halving, 4 butterfly.
 * Non-overlapping, basic linear and recursive doubling serve non-commutative operations.
 */
public final class ReduceScatters {
    private ReduceScatters() {
    }

    /** The per-rank counts of a call: {@code counts}, or {@code count} for every rank (the block form). */
    static int[] counts(Schedule s, CollCall c) {
        if (c.counts() != null) {
            return c.counts();
        }
        int[] counts = new int[s.size()];
        Arrays.fill(counts, c.count());
        return counts;
    }

    /** A copy of this rank's whole input vector, to reduce in. */
    private static MemorySegment input(Schedule s, CollCall c, int total) {
        MemorySegment acc = Schedule.scratch(c.bytes(total));
        MemorySegment.copy(c.inPlace() ? c.recv() : c.send(), 0, acc, 0, acc.byteSize());
        return acc;
    }

    private static void keepOwnBlock(Schedule s, CollCall c, MemorySegment acc, int[] starts) {
        s.round().copy(Halving.block(acc, starts, s.rank(), c.elementSize()),
                c.recv().asSlice(0, c.bytes(starts[s.rank() + 1] - starts[s.rank()])));
    }

    /** Linear reduce of the whole vector to rank 0, then a linear scatter of the blocks. */
    public static void nonOverlapping(Schedule s, CollCall c) {
        int[] starts = Halving.startsOf(counts(s, c));
        int total = starts[s.size()];
        MemorySegment whole = Schedule.scratch(c.bytes(total));
        Reduces.linear(s, input(s, c, total), whole, total, c.elementSize(), c.op(), 0);
        s.round();
        MemorySegment mine = c.recv().asSlice(0, c.bytes(starts[s.rank() + 1] - starts[s.rank()]));
        if (s.rank() == 0) {
            for (int r = 1; r < s.size(); r++) {
                s.send(Halving.block(whole, starts, r, c.elementSize()), r);
            }
            s.copy(Halving.block(whole, starts, 0, c.elementSize()), mine);
        } else {
            s.recv(mine, 0);
        }
    }

    public static void recursiveHalving(Schedule s, CollCall c) {
        int[] starts = Halving.startsOf(counts(s, c));
        MemorySegment acc = input(s, c, starts[s.size()]);
        Halving.reduceScatter(s, acc, starts, c.elementSize(), c.op());
        keepOwnBlock(s, c, acc, starts);
    }

    public static void ring(Schedule s, CollCall c) {
        int[] starts = Halving.startsOf(counts(s, c));
        MemorySegment acc = input(s, c, starts[s.size()]);
        Rings.reduceScatter(s, acc, starts, c.elementSize(), c.op(), -1);
        keepOwnBlock(s, c, acc, starts);
    }

    public static void butterfly(Schedule s, CollCall c) {
        int[] starts = Halving.startsOf(counts(s, c));
        MemorySegment acc = input(s, c, starts[s.size()]);
        Halving.butterfly(s, acc, starts, c.elementSize(), c.op());
        keepOwnBlock(s, c, acc, starts);
    }

    /** The whole vector by recursive-doubling allreduce, then this rank's block of it. */
    public static void recursiveDoubling(Schedule s, CollCall c) {
        int[] starts = Halving.startsOf(counts(s, c));
        int total = starts[s.size()];
        MemorySegment acc = Schedule.scratch(c.bytes(total));
        CollCall whole = new CollCall(null, acc, total, null, null, null, null, c.elementSize(), 0, c.op(), c.tag());
        Allreduces.recursiveDoubling(s, input(s, c, total), acc, whole);
        keepOwnBlock(s, c, acc, starts);
    }
}
