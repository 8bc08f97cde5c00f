package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;

/**
 * A buffer of {@code count} elements cut into segments of whole elements for pipelining. A
 * segment size of 0 (or one above the message) means a single segment; a zero-byte message is
 * one empty segment, so algorithms need no special case for it.
 */
record Segments(MemorySegment buffer, int count, int elementSize, int perSegment) {

    static Segments of(MemorySegment buffer, int count, int elementSize, long segmentBytes) {
        int per = segmentBytes <= 0 ? Math.max(1, count) : (int) Math.max(1, Math.min(count, segmentBytes / elementSize));
        return new Segments(buffer, count, elementSize, Math.max(1, per));
    }

    int segments() {
        return count == 0 ? 1 : (count + perSegment - 1) / perSegment;
    }

    /** First element of segment {@code i}. */
    int first(int i) {
        return i * perSegment;
    }

    /** Elements in segment {@code i}. */
    int length(int i) {
        return Math.max(0, Math.min(perSegment, count - i * perSegment));
    }

    MemorySegment segment(int i) {
        return buffer.asSlice((long) first(i) * elementSize, (long) length(i) * elementSize);
    }
}
