package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;

/**
 * Scatter (Open MPI's numbering: 1 basic linear, 2 binomial, 3 linear non-blocking) and
 * scatterv (linear). In place, the root's own block stays where it is in the send buffer.
 */
public final class Scatters {
    private Scatters() {
    }

    /** The root sends one block after the other, each waited for. */
    public static void basicLinear(Schedule s, CollCall c) {
        linear(s, c, true);
    }

    /** The root posts every block at once. */
    public static void linearNb(Schedule s, CollCall c) {
        linear(s, c, false);
    }

    private static void linear(Schedule s, CollCall c, boolean oneAtATime) {
        if (s.rank() != c.root()) {
            s.recv(c.recv().asSlice(0, c.bytes(c.count())), c.root());
            return;
        }
        for (int r = 0; r < s.size(); r++) {
            if (r != c.root()) {
                s.send(c.sendBlock(r), r);
                if (oneAtATime) {
                    s.round();
                }
            } else if (c.recv() != null) {
                s.copy(c.sendBlock(r), c.recv().asSlice(0, c.bytes(c.count())));
            }
        }
    }

    /** Down a binomial tree: each node receives its subtree's blocks and passes on its children's. */
    public static void binomial(Schedule s, CollCall c) {
        int size = s.size();
        int root = c.root();
        int v = Tree.virtual(s.rank(), root, size);
        Tree tree = Tree.binomial(s.rank(), root, size);
        long block = c.bytes(c.count());
        MemorySegment held;
        if (v == 0) {
            held = Schedule.scratch(block * size);
            for (int u = 0; u < size; u++) {
                s.copy(c.sendBlock(Tree.real(u, root, size)), held.asSlice(u * block, block));
            }
        } else {
            held = Schedule.scratch(block * Tree.binomialSubtreeSize(v, size));
            s.recv(held, tree.parent()).round();
        }
        for (int child : tree.children()) {
            int cv = Tree.virtual(child, root, size);
            s.send(held.asSlice((cv - v) * block, Tree.binomialSubtreeSize(cv, size) * block), child);
        }
        if (c.recv() != null) {
            s.copy(held.asSlice(0, block), c.recv().asSlice(0, block));
        }
    }

    public static void linearV(Schedule s, CollCall c) {
        if (s.rank() != c.root()) {
            s.recv(c.recv().asSlice(0, c.bytes(c.count())), c.root());
            return;
        }
        for (int r = 0; r < s.size(); r++) {
            MemorySegment slot = c.send().asSlice(c.bytes(c.displs()[r]), c.bytes(c.counts()[r]));
            if (r != c.root()) {
                s.send(slot, r);
            } else if (c.recv() != null) {
                s.copy(slot, c.recv().asSlice(0, slot.byteSize()));
            }
        }
    }
}
