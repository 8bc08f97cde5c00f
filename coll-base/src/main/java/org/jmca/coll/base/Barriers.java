package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;

/** Barrier algorithms (Open MPI's numbering: 1 linear, 2 double ring, 3 recursive doubling, 4 Bruck, 5 two-proc, 6 tree). */
public final class Barriers {
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    private Barriers() {
    }

    /** Everyone reports to rank 0, which then releases everyone. */
    public static void linear(Schedule s) {
        int size = s.size();
        if (s.rank() == 0) {
            for (int r = 1; r < size; r++) {
                s.recv(NOTHING, r);
            }
            s.round();
            for (int r = 1; r < size; r++) {
                s.send(NOTHING, r);
            }
        } else {
            s.send(NOTHING, 0).recv(NOTHING, 0);
        }
    }

    /** A token goes round the ring twice: the first lap says everyone arrived, the second releases. */
    public static void doubleRing(Schedule s) {
        int size = s.size();
        int rank = s.rank();
        int left = (rank - 1 + size) % size;
        int right = (rank + 1) % size;
        for (int lap = 0; lap < 2; lap++) {
            if (rank == 0) {
                s.send(NOTHING, right).round().recv(NOTHING, left).round();
            } else {
                s.recv(NOTHING, left).round().send(NOTHING, right).round();
            }
        }
    }

    /** Pairwise exchanges at distances 1, 2, 4...; ranks beyond the largest power of two fold in and out. */
    public static void recursiveDoubling(Schedule s) {
        int size = s.size();
        int rank = s.rank();
        int pof2 = Integer.highestOneBit(size);
        if (rank >= pof2) {
            s.send(NOTHING, rank - pof2).round().recv(NOTHING, rank - pof2);
            return;
        }
        if (rank + pof2 < size) {
            s.recv(NOTHING, rank + pof2).round();
        }
        for (int distance = 1; distance < pof2; distance <<= 1) {
            int peer = rank ^ distance;
            s.send(NOTHING, peer).recv(NOTHING, peer).round();
        }
        if (rank + pof2 < size) {
            s.send(NOTHING, rank + pof2);
        }
    }

    /** Dissemination: in round k each rank signals rank + 2^k and hears from rank - 2^k. */
    public static void bruck(Schedule s) {
        int size = s.size();
        int rank = s.rank();
        for (int distance = 1; distance < size; distance <<= 1) {
            s.send(NOTHING, (rank + distance) % size).recv(NOTHING, (rank - distance + size) % size).round();
        }
    }

    /** Two ranks: one exchange. */
    public static void twoProc(Schedule s) {
        int peer = 1 - s.rank();
        s.send(NOTHING, peer).recv(NOTHING, peer);
    }

    /** Fan-in up a binomial tree to rank 0, fan-out down the same tree. */
    public static void tree(Schedule s) {
        Tree tree = Tree.binomial(s.rank(), 0, s.size());
        for (int child : tree.children()) {
            s.recv(NOTHING, child);
        }
        s.round();
        if (!tree.isRoot()) {
            s.send(NOTHING, tree.parent()).round().recv(NOTHING, tree.parent()).round();
        }
        for (int child : tree.children()) {
            s.send(NOTHING, child);
        }
    }
}
