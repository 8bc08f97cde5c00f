package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;

/**
 * A buffer of {@code count} elements split into {@code parts} near-equal contiguous blocks (the
 * first ones one element longer), as scatter-allgather and ring algorithms cut a message.
 */
record Blocks(MemorySegment buffer, int count, int elementSize, int parts) {

    int first(int block) {
        int base = count / parts;
        int extra = count % parts;
        return block * base + Math.min(block, extra);
    }

    int length(int block) {
        return first(block + 1) - first(block);
    }

    /** Blocks {@code from} (inclusive) to {@code to} (exclusive) as one slice. */
    MemorySegment range(int from, int to) {
        int start = first(from);
        return buffer.asSlice((long) start * elementSize, (long) (first(to) - start) * elementSize);
    }

    MemorySegment block(int block) {
        return range(block, block + 1);
    }
}
