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
 * path (see BENCHMARKS.md). {@code memcpy} does not depend on the JIT. Small copies stay with
 * {@link MemorySegment#copy}, which is faster than a native call for them.
 */
public final class BulkCopy {
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
     * Copies {@code bytes} bytes from {@code source} at {@code sourceOffset} to {@code target} at
     * {@code targetOffset}, with the bounds, liveness and read-only checks of {@link MemorySegment#copy}.
     */
    public static void copy(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset,
                            long bytes) {
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
