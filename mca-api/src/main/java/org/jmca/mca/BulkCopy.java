package org.jmca.mca;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of fragments into and out of transport buffers: {@link MemorySegment#copy}, with a fast
 * path for the smallest.
 *
 * <p>Up to {@link #SMALL_UP_TO} bytes (a short message's payload) a copy is two loads and two
 * stores: {@link MemorySegment#copy}'s general path cost about 5 ns more per 8-byte copy.
 * Larger copies stay with {@link MemorySegment#copy}, which the JIT turns into its vectorized
 * copy stubs. The C library's {@code memcpy} (through FFM) was tried for them and measured worse
 * on the sm two-copy path: glibc copies 2 KiB to 1 MiB with {@code rep movsb} on these AMD
 * machines, and 1 MiB bandwidth then fell to 11–13 GB/s in about a third of the runs, against
 * 20–27 GB/s otherwise (BENCHMARKS.md).
 */
public final class BulkCopy {
    /** Up to this many bytes, a copy is a few loads and stores. */
    static final int SMALL_UP_TO = 16;

    private BulkCopy() {
    }

    /**
     * Up to 16 bytes as two loads and two stores of one width (the pair overlaps when the size is
     * not twice a width). Both loads come first, so overlapping ranges copy as through a
     * temporary, as with {@link MemorySegment#copy}.
     */
    private static void copySmall(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset,
                                  int bytes) {
        if (bytes >= 8) {
            long first = source.get(ValueLayout.JAVA_LONG_UNALIGNED, sourceOffset);
            long last = source.get(ValueLayout.JAVA_LONG_UNALIGNED, sourceOffset + bytes - 8);
            target.set(ValueLayout.JAVA_LONG_UNALIGNED, targetOffset, first);
            target.set(ValueLayout.JAVA_LONG_UNALIGNED, targetOffset + bytes - 8, last);
        } else if (bytes >= 4) {
            int first = source.get(ValueLayout.JAVA_INT_UNALIGNED, sourceOffset);
            int last = source.get(ValueLayout.JAVA_INT_UNALIGNED, sourceOffset + bytes - 4);
            target.set(ValueLayout.JAVA_INT_UNALIGNED, targetOffset, first);
            target.set(ValueLayout.JAVA_INT_UNALIGNED, targetOffset + bytes - 4, last);
        } else if (bytes >= 2) {
            short first = source.get(ValueLayout.JAVA_SHORT_UNALIGNED, sourceOffset);
            short last = source.get(ValueLayout.JAVA_SHORT_UNALIGNED, sourceOffset + bytes - 2);
            target.set(ValueLayout.JAVA_SHORT_UNALIGNED, targetOffset, first);
            target.set(ValueLayout.JAVA_SHORT_UNALIGNED, targetOffset + bytes - 2, last);
        } else if (bytes == 1) {
            target.set(ValueLayout.JAVA_BYTE, targetOffset, source.get(ValueLayout.JAVA_BYTE, sourceOffset));
        }
    }

    /**
     * Copies {@code bytes} bytes from {@code source} at {@code sourceOffset} to {@code target} at
     * {@code targetOffset}, with the bounds, liveness and read-only checks of {@link MemorySegment#copy}
     * (and, like it, as if through a temporary when the ranges overlap).
     */
    public static void copy(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset,
                            long bytes) {
        if (bytes >= 0 && bytes <= SMALL_UP_TO) {
            copySmall(source, sourceOffset, target, targetOffset, (int) bytes);
        } else {
            // the element-layout form goes straight to the copy stub; the plain one first unrolls
            // copies under 64 bytes in Java, which made this method the JIT's longest compile of a job
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, sourceOffset, target, ValueLayout.JAVA_BYTE, targetOffset,
                    bytes);
        }
    }
}
