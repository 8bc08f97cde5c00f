package org.jmca.coll.base;

/**
 * A rank's place in a tree rooted at some rank: its parent (-1 at the root) and its children, in
 * the order data should go to them. Ranks are real ranks; shapes are built on virtual ranks
 * ({@code (rank - root) mod size}), so every tree works for every root.
 */
public record Tree(int parent, int[] children) {

    public boolean isRoot() {
        return parent < 0;
    }

    static int virtual(int rank, int root, int size) {
        return (rank - root + size) % size;
    }

    static int real(int vrank, int root, int size) {
        return (vrank + root) % size;
    }

    /** Binomial tree: children of a node are vrank + 2^k below its lowest set bit, largest subtree first. */
    public static Tree binomial(int rank, int root, int size) {
        return knomial(rank, root, size, 2);
    }

    /** K-nomial tree of radix {@code radix}: the binomial tree generalised, log_radix(size) deep. */
    public static Tree knomial(int rank, int root, int size, int radix) {
        int v = virtual(rank, root, size);
        int parent = -1;
        long mask = 1;
        while (mask < size) {
            long digit = (v / mask) % radix;
            if (digit != 0) {
                parent = real((int) (v - digit * mask), root, size);
                break;
            }
            mask *= radix;
        }
        int count = 0;
        for (long m = mask / radix; m >= 1; m /= radix) {
            count += (int) Math.min(radix - 1, Math.max(0, (size - 1 - v) / m));
        }
        int[] children = new int[count];
        int next = 0;
        for (long m = mask / radix; m >= 1; m /= radix) {
            for (int d = 1; d < radix && v + d * m < size; d++) {
                children[next++] = real((int) (v + d * m), root, size);
            }
        }
        if (parent < 0 && v != 0) {
            throw new IllegalStateException("no parent for vrank " + v);
        }
        return new Tree(parent, children);
    }

    /** Number of vranks in the binomial subtree of {@code vrank} (itself included). */
    static int binomialSubtreeSize(int vrank, int size) {
        return vrank == 0 ? size : Math.min(Integer.lowestOneBit(vrank), size - vrank);
    }

    /** A k-ary tree in heap order: vrank v has children f*v+1 .. f*v+f. */
    public static Tree kary(int rank, int root, int size, int fanout) {
        int v = virtual(rank, root, size);
        int parent = v == 0 ? -1 : real((v - 1) / fanout, root, size);
        long first = (long) fanout * v + 1;
        int[] children = new int[(int) Math.max(0, Math.min(fanout, size - first))];
        for (int i = 0; i < children.length; i++) {
            children[i] = real((int) (first + i), root, size);
        }
        return new Tree(parent, children);
    }

    /**
     * {@code fanout} chains hanging from the root: the other vranks are dealt into chains of
     * near-equal length; each node passes data to the next one of its chain.
     */
    public static Tree chain(int rank, int root, int size, int fanout) {
        int v = virtual(rank, root, size);
        int others = size - 1;
        int chains = Math.max(1, Math.min(fanout, others));
        if (others == 0) {
            return new Tree(-1, new int[0]);
        }
        int[] start = new int[chains + 1];
        for (int c = 0; c <= chains; c++) {
            start[c] = 1 + (int) ((long) c * others / chains);
        }
        if (v == 0) {
            int[] heads = new int[chains];
            for (int c = 0; c < chains; c++) {
                heads[c] = real(start[c], root, size);
            }
            return new Tree(-1, heads);
        }
        int c = 0;
        while (v >= start[c + 1]) {
            c++;
        }
        int parent = v == start[c] ? root : real(v - 1, root, size);
        int[] next = v + 1 < start[c + 1] ? new int[] {real(v + 1, root, size)} : new int[0];
        return new Tree(parent, next);
    }

    /**
     * The in-order binary tree of ranks 0..size-1 rooted at size-1: a node is the last rank of
     * its range, its left child covers the lower part and its right child the rest, so reducing
     * left, then right, then the node's own data keeps the ranks in order (for non-commutative
     * operations). Children come as {left, right} when they exist.
     */
    public static Tree inOrderBinary(int rank, int size) {
        return inOrder(rank, 0, size - 1, -1);
    }

    private static Tree inOrder(int rank, int lo, int hi, int parent) {
        // node hi covers [lo, hi]; left child covers [lo, mid], right child covers [mid + 1, hi - 1]
        int below = hi - lo;
        int mid = lo + (below + 1) / 2 - 1;
        int left = below >= 1 ? mid : -1;
        int right = mid + 1 <= hi - 1 ? hi - 1 : -1;
        if (rank == hi) {
            int[] kids = left >= 0 && right >= 0 ? new int[] {left, right} : left >= 0 ? new int[] {left} : new int[0];
            return new Tree(parent, kids);
        }
        return rank <= mid ? inOrder(rank, lo, mid, hi) : inOrder(rank, mid + 1, hi - 1, hi);
    }
}
