package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.Buffer;

/**
 * The direct buffers that {@code MPI.slice} cut slices from, the most recent few: a java.nio
 * slice forgets its parent, but a datatype whose type map reaches below the slice's start (a
 * negative stride) addresses the parent's memory there, as Open MPI's bindings let it. Slicing
 * the same parent again costs a scan of a few addresses, no allocation; the parents are held
 * weakly, so they go when the program drops them.
 */
public final class SliceOrigins {
    /** A parent's memory, from its first element to its capacity. */
    private record Parent(long start, long end, WeakReference<Buffer> buffer) {
    }

    private static final int KEPT = 16;
    private static final Parent[] PARENTS = new Parent[KEPT];
    private static int next;

    private SliceOrigins() {
    }

    /** Notes that a slice was cut from direct {@code parent}. */
    public static void record(Buffer parent) {
        int element = UserBuffer.elementSize(parent);
        long start = MemorySegment.ofBuffer(parent).address() - (long) parent.position() * element;
        long end = start + (long) parent.capacity() * element;
        for (Parent p : PARENTS) {
            if (p != null && p.start() == start && p.end() == end && p.buffer().get() == parent) {
                return;
            }
        }
        synchronized (PARENTS) {
            PARENTS[next] = new Parent(start, end, new WeakReference<>(parent));
            next = (next + 1) % KEPT;
        }
    }

    /**
     * {@code buffer}'s memory from {@code below} bytes before its start to its end, when those
     * bytes belong to a recent parent of slices that is still alive; else null.
     */
    public static MemorySegment reachingBelow(Buffer buffer, long below) {
        MemorySegment own = MemorySegment.ofBuffer(buffer.duplicate().clear());
        long from = own.address() - below;
        long to = own.address() + own.byteSize();
        for (Parent p : PARENTS) {
            Buffer parent = p == null ? null : p.buffer().get();
            if (parent != null && p.start() <= from && to <= p.end()) {
                return MemorySegment.ofBuffer(parent.duplicate().clear()).asSlice(from - p.start(), to - from);
            }
        }
        return null;
    }
}
