package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jmca.mca.coll.CollCall;

/**
 * Allgather and allgatherv, numbered as Open MPI's: allgather 1 linear, 2 Bruck, 3 recursive
 * doubling, 4 ring, 5 neighbour exchange, 6 two-proc, 7 Sparbit; allgatherv 1 default (gatherv
 * then broadcast), 2 Bruck, 3 ring, 4 neighbour exchange, 5 two-proc, 6 Sparbit. Blocks land
 * straight in the receive buffer; each algorithm sees it through the {@link Layout} of the call.
 */
public final class Allgathers {
    private Allgathers() {
    }

    /** Where each rank's block lies in the receive buffer. */
    record Layout(MemorySegment recv, long[] offsets, long[] lengths) {
        static Layout of(Schedule s, CollCall c) {
            int size = s.size();
            long[] offsets = new long[size];
            long[] lengths = new long[size];
            for (int r = 0; r < size; r++) {
                offsets[r] = c.counts() == null ? c.bytes((long) r * c.count()) : c.bytes(c.displs()[r]);
                lengths[r] = c.counts() == null ? c.bytes(c.count()) : c.bytes(c.counts()[r]);
            }
            return new Layout(c.recv(), offsets, lengths);
        }

        MemorySegment block(int rank) {
            return recv.asSlice(offsets[rank], lengths[rank]);
        }

        /** Blocks {@code from}..{@code to - 1} as one slice; they must be adjacent. */
        MemorySegment range(int from, int to) {
            return recv.asSlice(offsets[from], offsets[to - 1] + lengths[to - 1] - offsets[from]);
        }

        boolean adjacent(int a, int b) {
            return offsets[a] + lengths[a] == offsets[b];
        }
    }

    /** Puts this rank's contribution into its block, unless it is there already (in place). */
    private static Layout start(Schedule s, CollCall c) {
        Layout layout = Layout.of(s, c);
        if (!c.inPlace()) {
            s.copy(c.send().asSlice(0, layout.lengths()[s.rank()]), layout.block(s.rank()));
        }
        return layout;
    }

    /** Every block to rank 0, then every block from rank 0 to everyone. */
    public static void linear(Schedule s, CollCall c) {
        Layout layout = start(s, c);
        int size = s.size();
        if (s.rank() != 0) {
            s.send(layout.block(s.rank()), 0).round();
            for (int r = 0; r < size; r++) {
                s.recv(layout.block(r), 0);
            }
            return;
        }
        for (int r = 1; r < size; r++) {
            s.recv(layout.block(r), r);
        }
        s.round();
        for (int to = 1; to < size; to++) {
            for (int r = 0; r < size; r++) {
                s.send(layout.block(r), to);
            }
        }
    }

    public static void bruck(Schedule s, CollCall c) {
        List<Integer> distances = new ArrayList<>();
        for (int d = 1; d < s.size(); d <<= 1) {
            distances.add(d);
        }
        disseminate(s, start(s, c), distances);
    }

    /** Sparbit: Bruck's exchanges with the distances in decreasing order, which spreads the blocks out. */
    public static void sparbit(Schedule s, CollCall c) {
        List<Integer> distances = new ArrayList<>();
        for (int d = 1; d < s.size(); d <<= 1) {
            distances.addFirst(d);
        }
        disseminate(s, start(s, c), distances);
    }

    /**
     * At each distance d, every rank sends to rank - d the blocks it holds that rank - d lacks, and
     * receives from rank + d. Which rank holds what is the same computation on every rank, so
     * sender and receiver agree on the messages without telling each other.
     */
    private static void disseminate(Schedule s, Layout layout, List<Integer> distances) {
        int size = s.size();
        int rank = s.rank();
        BitSet[] held = new BitSet[size];
        for (int r = 0; r < size; r++) {
            held[r] = new BitSet(size);
            held[r].set(r);
        }
        for (int d : distances) {
            int to = (rank - d + size) % size;
            int from = (rank + d) % size;
            BitSet outgoing = (BitSet) held[rank].clone();
            outgoing.andNot(held[to]);
            BitSet incoming = (BitSet) held[from].clone();
            incoming.andNot(held[rank]);
            for (MemorySegment run : runs(layout, outgoing)) {
                s.send(run, to);
            }
            for (MemorySegment run : runs(layout, incoming)) {
                s.recv(run, from);
            }
            s.round();
            BitSet[] next = new BitSet[size];
            for (int r = 0; r < size; r++) {
                next[r] = (BitSet) held[r].clone();
                next[r].or(held[(r + d) % size]);
            }
            held = next;
        }
    }

    /** The blocks of {@code set} as slices, adjacent blocks merged into one message. */
    private static List<MemorySegment> runs(Layout layout, BitSet set) {
        List<MemorySegment> runs = new ArrayList<>();
        int first = set.nextSetBit(0);
        while (first >= 0) {
            int last = first;
            while (set.get(last + 1) && layout.adjacent(last, last + 1)) {
                last++;
            }
            runs.add(layout.range(first, last + 1));
            first = set.nextSetBit(last + 1);
        }
        return runs;
    }

    /** Exchanges of aligned runs of blocks with rank XOR 2^k; other sizes than powers of two use Bruck. */
    public static void recursiveDoubling(Schedule s, CollCall c) {
        int size = s.size();
        if (Integer.bitCount(size) != 1) {
            bruck(s, c);
            return;
        }
        Layout layout = start(s, c);
        int rank = s.rank();
        for (int d = 1; d < size; d <<= 1) {
            int partner = rank ^ d;
            int mine = rank & ~(d - 1);
            int theirs = partner & ~(d - 1);
            s.send(layout.range(mine, mine + d), partner).recv(layout.range(theirs, theirs + d), partner).round();
        }
    }

    /** Each block travels round the ring: size - 1 steps. */
    public static void ring(Schedule s, CollCall c) {
        Layout layout = start(s, c);
        int size = s.size();
        int rank = s.rank();
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int k = 0; k < size - 1; k++) {
            s.send(layout.block((rank - k + size) % size), right)
                    .recv(layout.block((rank - k - 1 + size) % size), left).round();
        }
    }

    /**
     * Neighbour exchange (Chen et al.): size / 2 steps with the left and right neighbours in turn,
     * two blocks a step after the first. Needs an even size; odd sizes use the ring.
     */
    public static void neighborExchange(Schedule s, CollCall c) {
        int size = s.size();
        if (size % 2 != 0) {
            ring(s, c);
            return;
        }
        Layout layout = start(s, c);
        int rank = s.rank();
        boolean even = rank % 2 == 0;
        int[] neighbour = even ? new int[] {(rank + 1) % size, (rank - 1 + size) % size}
                : new int[] {(rank - 1 + size) % size, (rank + 1) % size};
        int[] arriving = even ? new int[] {rank, rank} : new int[] {neighbour[0], neighbour[0]};
        int[] step = even ? new int[] {2, -2} : new int[] {-2, 2};
        s.send(layout.block(rank), neighbour[0]).recv(layout.block(neighbour[0]), neighbour[0]).round();
        int sending = even ? rank : arriving[0];
        for (int i = 1; i < size / 2; i++) {
            int parity = i % 2;
            arriving[parity] = Math.floorMod(arriving[parity] + step[parity], size);
            for (int b = 0; b < 2; b++) {
                s.send(layout.block(sending + b), neighbour[parity]);
                s.recv(layout.block(arriving[parity] + b), neighbour[parity]);
            }
            s.round();
            sending = arriving[parity];
        }
    }

    public static void twoProc(Schedule s, CollCall c) {
        Layout layout = start(s, c);
        int peer = 1 - s.rank();
        s.send(layout.block(s.rank()), peer).recv(layout.block(peer), peer);
    }
}
