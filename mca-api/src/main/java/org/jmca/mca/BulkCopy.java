package org.jmca.mca;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Copies of many bytes (fragments into and out of transport buffers) through the C library's
 * {@code memcpy}, called with the FFM API as a critical function (heap arrays are passed in
 * place).
 *
 * <p>Why not {@link MemorySegment#copy}: its speed depends on what the JIT made of the caller.
 * On btl/sm's two-copy path some runs stayed at 2.2–2.3 GB/s instead of about 25 GB/s, and stack
 * samples of such a run showed the copy in {@code Unsafe.copyMemory}'s checked, non-intrinsic
 * path (see BENCHMARKS.md). {@code memcpy} does not depend on the JIT. Medium copies stay with
 * {@link MemorySegment#copy}, which is faster than a native call for them, and the smallest (a
 * short message's payload) are a few loads and stores.
 */
public final class BulkCopy {
    /**
     * Up to this many bytes, a few loads and stores: cheaper than {@link MemorySegment#copy}'s
     * general path, which took 6 ns of an 8-byte message's hop.
     */
    static final int SMALL_UP_TO = 16;
    /** From this many bytes on, {@code memcpy} is used. */
    public static final long NATIVE_FROM = 4096;

    private static final MethodHandle MEMCPY = lookup();

    private BulkCopy() {
    }

    private static MethodHandle lookup() {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find("memcpy").map(symbol -> linker.downcallHandle(symbol,
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                Linker.Option.critical(true))).orElse(null);
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
     * {@code targetOffset}, with the bounds, liveness and read-only checks of {@link MemorySegment#copy}.
     */
    public static void copy(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset,
                            long bytes) {
        if (bytes >= 0 && bytes <= SMALL_UP_TO) {
            copySmall(source, sourceOffset, target, targetOffset, (int) bytes);
            return;
        }
        if (bytes < NATIVE_FROM || MEMCPY == null || target.isReadOnly()) {
            MemorySegment.copy(source, sourceOffset, target, targetOffset, bytes);
            return;
        }
        MemorySegment from = source.asSlice(sourceOffset, bytes);
        MemorySegment to = target.asSlice(targetOffset, bytes);
        if (from.asOverlappingSlice(to).isPresent()) {
            MemorySegment.copy(from, 0, to, 0, bytes); // memcpy's result is undefined for overlaps
            return;
        }
        try {
            MemorySegment ignored = (MemorySegment) MEMCPY.invokeExact(to, from, bytes);
        } catch (Throwable e) {
            throw new IllegalStateException("memcpy failed: " + e, e);
        }
    }
}
