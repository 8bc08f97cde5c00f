package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.coll.CollCall;

/**
 * Broadcast algorithms, numbered as Open MPI's: 1 basic linear, 2 chain, 3 pipeline, 4 split
 * binary tree, 5 binary tree, 6 binomial, 7 k-nomial, 8 scatter-allgather, 9 scatter-allgather
 * ring. Tree algorithms pipeline the message in segments of {@code segmentSize} bytes.
 */
public final class Bcasts {
    private Bcasts() {
    }

    public static void linear(Schedule s, CollCall c) {
        if (s.rank() == c.root()) {
            for (int r = 0; r < s.size(); r++) {
                if (r != c.root()) {
                    s.send(c.recv(), r);
                }
            }
        } else {
            s.recv(c.recv(), c.root());
        }
    }

    public static void chain(Schedule s, CollCall c, long segmentSize, int fanout) {
        tree(s, Segments.of(c.recv(), c.count(), c.elementSize(), segmentSize),
                Tree.chain(s.rank(), c.root(), s.size(), fanout));
    }

    public static void pipeline(Schedule s, CollCall c, long segmentSize) {
        chain(s, c, segmentSize, 1);
    }

    public static void binaryTree(Schedule s, CollCall c, long segmentSize) {
        tree(s, Segments.of(c.recv(), c.count(), c.elementSize(), segmentSize), Tree.kary(s.rank(), c.root(), s.size(), 2));
    }

    public static void binomial(Schedule s, CollCall c, long segmentSize) {
        tree(s, Segments.of(c.recv(), c.count(), c.elementSize(), segmentSize), Tree.binomial(s.rank(), c.root(), s.size()));
    }

    public static void knomial(Schedule s, CollCall c, long segmentSize, int radix) {
        tree(s, Segments.of(c.recv(), c.count(), c.elementSize(), segmentSize),
                Tree.knomial(s.rank(), c.root(), s.size(), Math.max(2, radix)));
    }

    /** Pipelined down a tree: a node forwards segment i while it receives segment i + 1. */
    static void tree(Schedule s, Segments data, Tree tree) {
        int n = data.segments();
        if (tree.isRoot()) {
            for (int i = 0; i < n; i++) {
                for (int child : tree.children()) {
                    s.send(data.segment(i), child);
                }
                s.round();
            }
            return;
        }
        s.recv(data.segment(0), tree.parent()).round();
        for (int i = 1; i <= n; i++) {
            for (int child : tree.children()) {
                s.send(data.segment(i - 1), child);
            }
            if (i < n) {
                s.recv(data.segment(i), tree.parent());
            }
            s.round();
        }
    }

    /**
     * The message is halved; each half goes down one side of a binary tree, then every node
     * swaps halves with its partner on the other side (a node without one gets its missing half
     * from the root).
     */
    public static void splitBinaryTree(Schedule s, CollCall c, long segmentSize) {
        int size = s.size();
        int root = c.root();
        if (size < 2) {
            return;
        }
        Blocks halves = new Blocks(c.recv(), c.count(), c.elementSize(), 2);
        List<Integer> left = new ArrayList<>();
        List<Integer> right = new ArrayList<>();
        for (int v = 1; v < size; v++) {
            (side(v) == 0 ? left : right).add(v);
        }
        int v = Tree.virtual(s.rank(), root, size);
        Tree full = Tree.kary(s.rank(), root, size, 2);
        if (v == 0) {
            for (int half = 0; half < 2 && half < full.children().length; half++) {
                tree(s, segments(halves, half, c, segmentSize), new Tree(-1, new int[] {full.children()[half]}));
            }
        } else {
            tree(s, segments(halves, side(v), c, segmentSize), full);
        }
        s.round();
        int paired = Math.min(left.size(), right.size());
        for (int i = 0; i < Math.max(left.size(), right.size()); i++) {
            boolean hasLeft = i < left.size();
            boolean hasRight = i < right.size();
            int l = hasLeft ? left.get(i) : -1;
            int r = hasRight ? right.get(i) : -1;
            if (i < paired) {
                if (v == l || v == r) {
                    int partner = Tree.real(v == l ? r : l, root, size);
                    s.send(halves.block(side(v)), partner).recv(halves.block(1 - side(v)), partner);
                }
            } else {
                int lone = hasLeft ? l : r;
                int missing = 1 - side(lone);
                if (v == lone) {
                    s.recv(halves.block(missing), root);
                } else if (v == 0) {
                    s.send(halves.block(missing), Tree.real(lone, root, size));
                }
            }
        }
    }

    private static Segments segments(Blocks halves, int half, CollCall c, long segmentSize) {
        return Segments.of(halves.block(half), halves.length(half), c.elementSize(), segmentSize);
    }

    /** 0 for the vranks under the root's first child (vrank 1), 1 for those under vrank 2. */
    private static int side(int vrank) {
        while (vrank > 2) {
            vrank = (vrank - 1) / 2;
        }
        return vrank - 1;
    }

    /** Binomial scatter of size blocks, then an allgather: recursive doubling for powers of two, else a ring. */
    public static void scatterAllgather(Schedule s, CollCall c) {
        Blocks blocks = binomialScatter(s, c);
        if (Integer.bitCount(s.size()) == 1) {
            int v = Tree.virtual(s.rank(), c.root(), s.size());
            for (int d = 1; d < s.size(); d <<= 1) {
                int partner = v ^ d;
                int mine = v / d * d;
                int theirs = partner / d * d;
                s.send(blocks.range(mine, mine + d), Tree.real(partner, c.root(), s.size()))
                        .recv(blocks.range(theirs, theirs + d), Tree.real(partner, c.root(), s.size())).round();
            }
        } else {
            ringAllgather(s, c, blocks);
        }
    }

    public static void scatterAllgatherRing(Schedule s, CollCall c) {
        ringAllgather(s, c, binomialScatter(s, c));
    }

    /** Sends each vrank its block (vrank order) down a binomial tree; returns the blocks. */
    private static Blocks binomialScatter(Schedule s, CollCall c) {
        int size = s.size();
        int v = Tree.virtual(s.rank(), c.root(), size);
        Blocks blocks = new Blocks(c.recv(), c.count(), c.elementSize(), size);
        Tree tree = Tree.binomial(s.rank(), c.root(), size);
        if (!tree.isRoot()) {
            s.recv(blocks.range(v, v + Tree.binomialSubtreeSize(v, size)), tree.parent()).round();
        }
        for (int child : tree.children()) {
            int cv = Tree.virtual(child, c.root(), size);
            s.send(blocks.range(cv, cv + Tree.binomialSubtreeSize(cv, size)), child);
        }
        s.round();
        return blocks;
    }

    private static void ringAllgather(Schedule s, CollCall c, Blocks blocks) {
        int size = s.size();
        int v = Tree.virtual(s.rank(), c.root(), size);
        int right = Tree.real((v + 1) % size, c.root(), size);
        int left = Tree.real((v - 1 + size) % size, c.root(), size);
        for (int k = 0; k < size - 1; k++) {
            s.send(blocks.block((v - k + size) % size), right).recv(blocks.block((v - k - 1 + 2 * size) % size), left)
                    .round();
        }
    }
}
