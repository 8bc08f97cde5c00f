package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;

/**
 * Allreduce algorithms, numbered as Open MPI's: 1 basic linear, 2 non-overlapping, 3 recursive
 * doubling, 4 ring, 5 segmented ring, 6 Rabenseifner. The first three serve non-commutative
 * operations; ring, segmented ring and Rabenseifner need commutative ones.
 */
public final class Allreduces {
    private Allreduces() {
    }

    /** Linear reduce to rank 0, then linear broadcast. */
    public static void basicLinear(Schedule s, CollCall c) {
        MemorySegment result = c.recv().asSlice(0, c.bytes(c.count()));
        Reduces.linear(s, Reduces.own(s, c), result, c.count(), c.elementSize(), c.op(), 0);
        s.round();
        Bcasts.linear(s, CollCall.of(null, result, c.count(), c.elementSize(), 0, null, c.tag()));
    }

    /** A reduce to rank 0 (in-order binary tree for non-commutative operations), then a binomial broadcast. */
    public static void nonoverlapping(Schedule s, CollCall c, long segmentSize) {
        MemorySegment result = c.recv().asSlice(0, c.bytes(c.count()));
        CollCall reduce = new CollCall(c.send(), result, c.count(), null, null, null, null, c.elementSize(), 0, c.op(),
                c.tag());
        if (c.op().commutative()) {
            Reduces.binomial(s, reduce, segmentSize);
        } else {
            Reduces.inOrderBinary(s, reduce, segmentSize);
        }
        s.round();
        Bcasts.binomial(s, CollCall.of(null, result, c.count(), c.elementSize(), 0, null, c.tag()), segmentSize);
    }

    /**
     * Whole vectors exchanged at distances 1, 2, 4...; operands combined lower rank first, so
     * non-commutative operations work. Ranks beyond the largest power of two fold in and out.
     */
    public static void recursiveDoubling(Schedule s, CollCall c) {
        recursiveDoubling(s, Reduces.own(s, c), c.recv().asSlice(0, c.bytes(c.count())), c);
    }

    static void recursiveDoubling(Schedule s, MemorySegment own, MemorySegment acc, CollCall c) {
        int size = s.size();
        int rank = s.rank();
        int count = c.count();
        int pof2 = Integer.highestOneBit(size);
        int rem = size - pof2;
        MemorySegment incoming = Schedule.scratch(acc.byteSize());
        s.copy(own, acc);
        if (rank < 2 * rem && rank % 2 == 0) {
            s.send(acc, rank + 1).round().recv(acc, rank + 1);
            return;
        }
        if (rank < 2 * rem) {
            s.recv(incoming, rank - 1).round().reduce(c.op(), incoming, acc, count);
        }
        int v = rank < 2 * rem ? rank / 2 : rank - rem;
        for (int d = 1; d < pof2; d <<= 1) {
            int partnerV = v ^ d;
            int partner = partnerV < rem ? 2 * partnerV + 1 : partnerV + rem;
            s.send(acc, partner).recv(incoming, partner).round();
            if (partnerV < v) {
                s.reduce(c.op(), incoming, acc, count);
            } else {
                s.reduce(c.op(), acc, incoming, count).copy(incoming, acc);
            }
        }
        if (rank < 2 * rem) {
            s.round().send(acc, rank - 1);
        }
    }

    /** Ring reduce-scatter then ring allgather, one block per rank. */
    public static void ring(Schedule s, CollCall c) {
        MemorySegment acc = c.recv().asSlice(0, c.bytes(c.count()));
        s.copy(Reduces.own(s, c), acc).round();
        ring(s, acc, c.count(), c);
    }

    private static void ring(Schedule s, MemorySegment acc, int count, CollCall c) {
        int[] starts = Halving.evenStarts(count, s.size());
        Rings.reduceScatter(s, acc, starts, c.elementSize(), c.op(), 0);
        Rings.allgather(s, acc, starts, c.elementSize(), 0);
        s.round();
    }

    /**
     * The ring over successive chunks of size × segment-size bytes, so each step moves at most
     * one segment: the ring's bandwidth with bounded messages on large vectors.
     */
    public static void segmentedRing(Schedule s, CollCall c, long segmentSize) {
        MemorySegment acc = c.recv().asSlice(0, c.bytes(c.count()));
        s.copy(Reduces.own(s, c), acc).round();
        long chunkBytes = segmentSize <= 0 ? acc.byteSize() : segmentSize * s.size();
        Segments chunks = Segments.of(acc, c.count(), c.elementSize(), chunkBytes);
        for (int i = 0; i < chunks.segments(); i++) {
            ring(s, chunks.segment(i), chunks.length(i), c);
        }
    }

    /** Reduce-scatter by recursive halving, then allgather by recursive doubling. */
    public static void rabenseifner(Schedule s, CollCall c) {
        MemorySegment acc = c.recv().asSlice(0, c.bytes(c.count()));
        s.copy(Reduces.own(s, c), acc).round();
        int[] starts = Halving.evenStarts(c.count(), s.size());
        Halving.reduceScatter(s, acc, starts, c.elementSize(), c.op());
        s.round();
        Halving.allgather(s, acc, starts, c.elementSize());
    }
}
