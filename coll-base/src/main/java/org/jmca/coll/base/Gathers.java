package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;

/**
 * Gather (Open MPI's numbering: 1 basic linear, 2 binomial, 3 linear with synchronisation) and
 * gatherv (linear).
 */
public final class Gathers {
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    private Gathers() {
    }

    public static void basicLinear(Schedule s, CollCall c) {
        if (s.rank() != c.root()) {
            s.send(c.sendBlock(0), c.root());
            return;
        }
        for (int r = 0; r < s.size(); r++) {
            if (r != c.root()) {
                s.recv(c.recvBlock(r), r);
            } else if (!c.inPlace()) {
                s.copy(c.sendBlock(0), c.recvBlock(r));
            }
        }
    }

    /** The root clears each rank to send with an empty message, one rank at a time. */
    public static void linearSync(Schedule s, CollCall c) {
        if (s.rank() != c.root()) {
            s.recv(NOTHING, c.root()).round().send(c.sendBlock(0), c.root());
            return;
        }
        if (!c.inPlace()) {
            s.copy(c.sendBlock(0), c.recvBlock(c.root()));
        }
        for (int r = 0; r < s.size(); r++) {
            if (r != c.root()) {
                s.recv(c.recvBlock(r), r).send(NOTHING, r).round();
            }
        }
    }

    /**
     * Up a binomial tree: each node collects its subtree's blocks (in virtual-rank order, which
     * is contiguous) and passes them up; the root rotates them into place.
     */
    public static void binomial(Schedule s, CollCall c) {
        int size = s.size();
        int root = c.root();
        int v = Tree.virtual(s.rank(), root, size);
        Tree tree = Tree.binomial(s.rank(), root, size);
        int subtree = Tree.binomialSubtreeSize(v, size);
        long block = c.bytes(c.count());
        boolean direct = v == 0 && root == 0;
        MemorySegment collected = direct ? c.recv().asSlice(0, block * size) : Schedule.scratch(block * subtree);
        MemorySegment mine = v == 0 && c.inPlace() ? c.recvBlock(root) : c.sendBlock(0);
        s.copy(mine, collected.asSlice(0, block));
        for (int child : tree.children()) {
            int cv = Tree.virtual(child, root, size);
            s.recv(collected.asSlice((cv - v) * block, Tree.binomialSubtreeSize(cv, size) * block), child);
        }
        s.round();
        if (!tree.isRoot()) {
            s.send(collected, tree.parent());
        } else if (!direct) {
            for (int u = 0; u < size; u++) {
                s.copy(collected.asSlice(u * block, block), c.recvBlock(Tree.real(u, root, size)));
            }
        }
    }

    /** Gatherv: every rank sends its count to the root, which places it at the rank's displacement. */
    public static void linearV(Schedule s, CollCall c) {
        if (s.rank() != c.root()) {
            s.send(c.send().asSlice(0, c.bytes(c.count())), c.root());
            return;
        }
        for (int r = 0; r < s.size(); r++) {
            MemorySegment slot = c.recv().asSlice(c.bytes(c.displs()[r]), c.bytes(c.counts()[r]));
            if (r != c.root()) {
                s.recv(slot, r);
            } else if (!c.inPlace()) {
                s.copy(c.send().asSlice(0, slot.byteSize()), slot);
            }
        }
    }
}
