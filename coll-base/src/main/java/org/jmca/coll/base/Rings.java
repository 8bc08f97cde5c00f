package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.Reduction;

/**
 * Ring steps over a vector cut in one block per rank ({@code starts} as in {@link Halving}):
 * size - 1 steps, each sending one block to the right neighbour and receiving one from the left.
 */
final class Rings {
    private Rings() {
    }

    /**
     * Reduce-scatter: afterwards rank r holds the reduction of block {@code r + 1 + shift}.
     * Operands are combined out of rank order: commutative operations only.
     */
    static void reduceScatter(Schedule s, MemorySegment acc, int[] starts, int elementSize, Reduction op, int shift) {
        int size = s.size();
        int rank = s.rank();
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        int largest = 0;
        for (int b = 0; b < size; b++) {
            largest = Math.max(largest, starts[b + 1] - starts[b]);
        }
        MemorySegment incoming = Schedule.scratch((long) largest * elementSize);
        for (int k = 0; k < size - 1; k++) {
            int out = Math.floorMod(rank - k + shift, size);
            int in = Math.floorMod(rank - k - 1 + shift, size);
            int length = starts[in + 1] - starts[in];
            MemorySegment into = incoming.asSlice(0, (long) length * elementSize);
            s.send(Halving.block(acc, starts, out, elementSize), right).recv(into, left).round()
                    .reduce(op, into, Halving.block(acc, starts, in, elementSize), length);
        }
        s.round();
    }

    /** Allgather: rank r starts with block {@code r + 1 + shift} and ends with every block. */
    static void allgather(Schedule s, MemorySegment acc, int[] starts, int elementSize, int shift) {
        int size = s.size();
        int rank = s.rank();
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int k = 0; k < size - 1; k++) {
            int out = Math.floorMod(rank + 1 + shift - k, size);
            int in = Math.floorMod(rank + shift - k, size);
            s.send(Halving.block(acc, starts, out, elementSize), right)
                    .recv(Halving.block(acc, starts, in, elementSize), left).round();
        }
    }
}
