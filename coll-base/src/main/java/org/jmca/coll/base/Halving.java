package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.Reduction;

/**
 * Reduce-scatter and allgather over the largest power of two of ranks, the building blocks of
 * Rabenseifner's allreduce and reduce and of the halving and butterfly reduce-scatters.
 *
 * <p>A vector of elements is cut into one block per rank ({@code starts[r]} is the first element
 * of rank r's block, {@code starts[size]} the end). With {@code rem = size - pof2} ranks too
 * many, the first {@code 2 * rem} ranks fold in pairs: each even one gives its vector to the odd
 * one above it and sits out, and the odd one, as virtual rank r / 2, then owns both blocks. So
 * a virtual rank always owns a contiguous run of blocks, and runs of virtual ranks own
 * contiguous element ranges. Operands are combined out of rank order: commutative operations only.
 */
final class Halving {
    private Halving() {
    }

    /** Block starts for {@code count} elements cut into {@code parts} near-equal blocks. */
    static int[] evenStarts(int count, int parts) {
        int[] starts = new int[parts + 1];
        for (int i = 0; i <= parts; i++) {
            starts[i] = (int) ((long) count * i / parts);
        }
        return starts;
    }

    /** Block starts from per-rank counts. */
    static int[] startsOf(int[] counts) {
        int[] starts = new int[counts.length + 1];
        for (int i = 0; i < counts.length; i++) {
            starts[i + 1] = starts[i] + counts[i];
        }
        return starts;
    }

    static MemorySegment block(MemorySegment vector, int[] starts, int rank, int elementSize) {
        return elements(vector, starts[rank], starts[rank + 1], elementSize);
    }

    private static MemorySegment elements(MemorySegment vector, int from, int to, int elementSize) {
        return vector.asSlice((long) from * elementSize, (long) (to - from) * elementSize);
    }

    /** The layout of one communicator size: pof2, rem and the virtual-rank mapping. */
    private record Fold(int size, int pof2, int rem) {
        static Fold of(int size) {
            int pof2 = Integer.highestOneBit(size);
            return new Fold(size, pof2, size - pof2);
        }

        /** The virtual rank of a real rank, or -1 for one that sits out. */
        int virtual(int rank) {
            if (rank < 2 * rem) {
                return rank % 2 == 0 ? -1 : rank / 2;
            }
            return rank - rem;
        }

        int real(int vrank) {
            return vrank < rem ? 2 * vrank + 1 : vrank + rem;
        }

        /** First real block owned by virtual rank v (v == pof2 gives the end). */
        int firstBlock(int vrank) {
            return vrank < rem ? 2 * vrank : vrank + rem;
        }
    }

    /** Elements of the blocks owned by virtual ranks [from, to). */
    private static MemorySegment owned(MemorySegment vector, int[] starts, Fold fold, int from, int to, int elementSize) {
        return elements(vector, starts[fold.firstBlock(from)], starts[fold.firstBlock(to)], elementSize);
    }

    private static int elementCount(int[] starts, Fold fold, int from, int to) {
        return starts[fold.firstBlock(to)] - starts[fold.firstBlock(from)];
    }

    /** The even ranks of the first 2 * rem give their vector to the odd rank above. Returns the fold. */
    private static Fold foldIn(Schedule s, MemorySegment acc, int[] starts, int elementSize, Reduction op) {
        Fold fold = Fold.of(s.size());
        int rank = s.rank();
        int count = starts[s.size()];
        if (rank < 2 * fold.rem()) {
            if (rank % 2 == 0) {
                s.send(acc.asSlice(0, (long) count * elementSize), rank + 1).round();
            } else {
                MemorySegment incoming = Schedule.scratch((long) count * elementSize);
                s.recv(incoming, rank - 1).round().reduce(op, incoming, acc, count);
            }
        }
        return fold;
    }

    /**
     * Leaves each rank's block of the reduction of every rank's {@code acc} in its own {@code acc}
     * (recursive halving: distances pof2/2, ..., 1, the vector halved at each step).
     */
    static void reduceScatter(Schedule s, MemorySegment acc, int[] starts, int elementSize, Reduction op) {
        Fold fold = foldIn(s, acc, starts, elementSize, op);
        int v = fold.virtual(s.rank());
        if (v >= 0) {
            MemorySegment incoming = Schedule.scratch((long) starts[s.size()] * elementSize);
            int lo = 0;
            for (int d = fold.pof2() / 2; d >= 1; d /= 2) {
                boolean lower = v < lo + d;
                int keep = lower ? lo : lo + d;
                int give = lower ? lo + d : lo;
                exchangeAndReduce(s, acc, incoming, starts, fold, keep, give, d, v ^ d, elementSize, op);
                lo = keep;
            }
        }
        handBack(s, acc, starts, fold, elementSize, false);
    }

    /**
     * The butterfly: distances 1, 2, ..., pof2/2 with the vector halved at each step, so virtual
     * rank v ends with the block of the bit-reversal of v, which it then swaps into place.
     */
    static void butterfly(Schedule s, MemorySegment acc, int[] starts, int elementSize, Reduction op) {
        Fold fold = foldIn(s, acc, starts, elementSize, op);
        int v = fold.virtual(s.rank());
        if (v >= 0) {
            MemorySegment incoming = Schedule.scratch((long) starts[s.size()] * elementSize);
            int lo = 0;
            int width = fold.pof2();
            for (int d = 1; d < fold.pof2(); d <<= 1) {
                int half = width / 2;
                boolean lower = (v & d) == 0;
                int keep = lower ? lo : lo + half;
                int give = lower ? lo + half : lo;
                exchangeAndReduce(s, acc, incoming, starts, fold, keep, give, half, v ^ d, elementSize, op);
                lo = keep;
                width = half;
            }
            int held = lo;
            if (held != v) {
                s.send(owned(acc, starts, fold, held, held + 1, elementSize), fold.real(held))
                        .recv(owned(acc, starts, fold, v, v + 1, elementSize), fold.real(held)).round();
            }
        }
        handBack(s, acc, starts, fold, elementSize, false);
    }

    private static void exchangeAndReduce(Schedule s, MemorySegment acc, MemorySegment incoming, int[] starts,
                                          Fold fold, int keep, int give, int width, int partnerV, int elementSize,
                                          Reduction op) {
        int partner = fold.real(partnerV);
        int kept = elementCount(starts, fold, keep, keep + width);
        MemorySegment into = incoming.asSlice(0, (long) kept * elementSize);
        MemorySegment keptRange = owned(acc, starts, fold, keep, keep + width, elementSize);
        s.send(owned(acc, starts, fold, give, give + width, elementSize), partner).recv(into, partner).round()
                .reduce(op, into, keptRange, kept);
    }

    /**
     * The inverse: every rank starts with its own block of {@code acc} and ends with all of them
     * (recursive doubling among the virtual ranks, then the whole vector to those that sat out).
     */
    static void allgather(Schedule s, MemorySegment acc, int[] starts, int elementSize) {
        Fold fold = Fold.of(s.size());
        int rank = s.rank();
        int v = fold.virtual(rank);
        if (rank < 2 * fold.rem() && rank % 2 == 0) {
            s.send(block(acc, starts, rank, elementSize), rank + 1).round();
        } else if (rank < 2 * fold.rem()) {
            s.recv(block(acc, starts, rank - 1, elementSize), rank - 1).round();
        }
        if (v >= 0) {
            for (int d = 1; d < fold.pof2(); d <<= 1) {
                int mine = v & ~(d - 1);
                int partnerV = v ^ d;
                int theirs = partnerV & ~(d - 1);
                int partner = fold.real(partnerV);
                s.send(owned(acc, starts, fold, mine, mine + d, elementSize), partner)
                        .recv(owned(acc, starts, fold, theirs, theirs + d, elementSize), partner).round();
            }
        }
        handBack(s, acc, starts, fold, elementSize, true);
    }

    /** The ranks that sat out get their block (or, with {@code whole}, the whole vector) from their partner. */
    private static void handBack(Schedule s, MemorySegment acc, int[] starts, Fold fold, int elementSize, boolean whole) {
        int rank = s.rank();
        if (rank >= 2 * fold.rem()) {
            return;
        }
        int even = rank - rank % 2;
        MemorySegment part = whole ? elements(acc, 0, starts[s.size()], elementSize)
                : block(acc, starts, even, elementSize);
        s.round();
        if (rank % 2 == 0) {
            s.recv(part, rank + 1);
        } else {
            s.send(part, rank - 1);
        }
        s.round();
    }
}
