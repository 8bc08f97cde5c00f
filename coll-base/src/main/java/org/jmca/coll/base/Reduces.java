package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.Reduction;

/**
 * Reduce algorithms, numbered as Open MPI's: 1 linear, 2 chain, 3 pipeline, 4 binary, 5 binomial,
 * 6 in-order binary, 7 Rabenseifner. Linear and in-order binary keep the ranks in order and so
 * serve non-commutative operations; the others need a commutative one.
 */
public final class Reduces {
    private Reduces() {
    }

    /** This rank's operand: the send buffer, or a copy of the receive buffer when in place. */
    static MemorySegment own(Schedule s, CollCall c) {
        if (!c.inPlace()) {
            return c.send().asSlice(0, c.bytes(c.count()));
        }
        MemorySegment copy = Schedule.scratch(c.bytes(c.count()));
        MemorySegment.copy(c.recv(), 0, copy, 0, copy.byteSize());
        return copy;
    }

    /** The root takes every operand in turn, from the last rank down, so the result is a0 op a1 op ... */
    public static void linear(Schedule s, CollCall c) {
        linear(s, own(s, c), c.recv(), c.count(), c.elementSize(), c.op(), c.root());
    }

    static void linear(Schedule s, MemorySegment own, MemorySegment result, int count, int elementSize,
                       Reduction op, int root) {
        int size = s.size();
        if (s.rank() != root) {
            s.send(own, root);
            return;
        }
        long bytes = (long) count * elementSize;
        MemorySegment acc = result.asSlice(0, bytes);
        if (root == size - 1) {
            s.copy(own, acc);
        } else {
            s.recv(acc, size - 1).round();
        }
        MemorySegment operand = Schedule.scratch(bytes);
        for (int r = size - 2; r >= 0; r--) {
            if (r == root) {
                s.reduce(op, own, acc, count);
            } else {
                s.recv(operand, r).round().reduce(op, operand, acc, count);
            }
        }
    }

    public static void chain(Schedule s, CollCall c, long segmentSize, int fanout) {
        tree(s, c, Tree.chain(s.rank(), c.root(), s.size(), fanout), segmentSize);
    }

    public static void pipeline(Schedule s, CollCall c, long segmentSize) {
        chain(s, c, segmentSize, 1);
    }

    public static void binary(Schedule s, CollCall c, long segmentSize) {
        tree(s, c, Tree.kary(s.rank(), c.root(), s.size(), 2), segmentSize);
    }

    public static void binomial(Schedule s, CollCall c, long segmentSize) {
        tree(s, c, Tree.binomial(s.rank(), c.root(), s.size()), segmentSize);
    }

    /** On the in-order binary tree rooted at the last rank, which hands the result to the root. */
    public static void inOrderBinary(Schedule s, CollCall c, long segmentSize) {
        int size = s.size();
        int top = size - 1;
        MemorySegment own = own(s, c);
        long bytes = c.bytes(c.count());
        boolean rootIsTop = c.root() == top;
        MemorySegment acc = s.rank() == c.root() && rootIsTop ? c.recv().asSlice(0, bytes) : Schedule.scratch(bytes);
        tree(s, own, acc, c.count(), c.elementSize(), c.op(), Tree.inOrderBinary(s.rank(), size), segmentSize);
        if (!rootIsTop) {
            s.round();
            if (s.rank() == top) {
                s.send(acc, c.root());
            } else if (s.rank() == c.root()) {
                s.recv(c.recv().asSlice(0, bytes), top);
            }
        }
    }

    private static void tree(Schedule s, CollCall c, Tree tree, long segmentSize) {
        long bytes = c.bytes(c.count());
        MemorySegment acc = tree.isRoot() ? c.recv().asSlice(0, bytes) : Schedule.scratch(bytes);
        tree(s, own(s, c), acc, c.count(), c.elementSize(), c.op(), tree, segmentSize);
    }

    /**
     * Pipelined up a tree: segment i of every child is combined into the accumulator and passed
     * to the parent while segment i + 1 arrives. Children are combined last-first, which keeps the
     * ranks in order on the in-order binary tree (its children are {left, right}).
     */
    static void tree(Schedule s, MemorySegment own, MemorySegment acc, int count, int elementSize, Reduction op,
                     Tree tree, long segmentSize) {
        Segments result = Segments.of(acc, count, elementSize, segmentSize);
        int[] children = tree.children();
        Segments[] incoming = new Segments[children.length];
        for (int i = 0; i < children.length; i++) {
            incoming[i] = Segments.of(Schedule.scratch((long) result.perSegment() * elementSize),
                    result.perSegment(), elementSize, 0);
        }
        s.copy(own, acc);
        int n = result.segments();
        for (int i = 0; i < children.length; i++) {
            s.recv(slice(incoming[i], result, 0), children[i]);
        }
        s.round();
        for (int seg = 0; seg < n; seg++) {
            for (int i = children.length - 1; i >= 0; i--) {
                s.reduce(op, slice(incoming[i], result, seg), result.segment(seg), result.length(seg));
            }
            if (!tree.isRoot()) {
                s.send(result.segment(seg), tree.parent());
            }
            if (seg + 1 < n) {
                for (int i = 0; i < children.length; i++) {
                    s.recv(slice(incoming[i], result, seg + 1), children[i]);
                }
            }
            s.round();
        }
    }

    /** The part of a child's one-segment buffer that segment {@code seg} of the result fills. */
    private static MemorySegment slice(Segments buffer, Segments result, int seg) {
        return buffer.buffer().asSlice(0, (long) result.length(seg) * result.elementSize());
    }

    /** Reduce-scatter by recursive halving, then each rank's block to the root. Commutative only. */
    public static void rabenseifner(Schedule s, CollCall c) {
        int size = s.size();
        long bytes = c.bytes(c.count());
        MemorySegment acc = s.rank() == c.root() ? c.recv().asSlice(0, bytes) : Schedule.scratch(bytes);
        s.copy(own(s, c), acc).round();
        int[] starts = Halving.evenStarts(c.count(), size);
        Halving.reduceScatter(s, acc, starts, c.elementSize(), c.op());
        s.round();
        MemorySegment mine = Halving.block(acc, starts, s.rank(), c.elementSize());
        if (s.rank() != c.root()) {
            s.send(mine, c.root());
        } else {
            for (int r = 0; r < size; r++) {
                if (r != c.root()) {
                    s.recv(Halving.block(acc, starts, r, c.elementSize()), r);
                }
            }
        }
    }
}
