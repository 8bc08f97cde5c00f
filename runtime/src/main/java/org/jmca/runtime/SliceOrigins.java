package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each direct buffer made by {@code MPI.slice} begins in the buffer it was cut from. A
 * java.nio slice forgets its parent, but a datatype whose type map reaches below the slice's
 * start (a negative stride) addresses the parent's memory there, as Open MPI's bindings let it.
 * Weak: an entry goes with its slice.
 */
public final class SliceOrigins {
    /** The parent's whole memory, and the byte where the slice begins in it. */
    private record Origin(MemorySegment parent, long offset) {
    }

    private static final Map<Key, Origin> ORIGINS = new ConcurrentHashMap<>();
    private static final ReferenceQueue<Buffer> COLLECTED = new ReferenceQueue<>();

    private SliceOrigins() {
    }

    /** Notes that direct {@code slice} begins {@code offsetBytes} into direct {@code parent}. */
    public static void record(Buffer slice, Buffer parent, long offsetBytes) {
        for (Object gone; (gone = COLLECTED.poll()) != null; ) {
            ORIGINS.remove(gone);
        }
        MemorySegment whole = MemorySegment.ofBuffer(parent.duplicate().clear());
        Origin outer = ORIGINS.get(new Key(parent, null));
        ORIGINS.put(new Key(slice, COLLECTED), outer == null ? new Origin(whole, offsetBytes)
                : new Origin(outer.parent(), outer.offset() + offsetBytes));
    }

    /**
     * {@code buffer}'s memory from {@code below} bytes before its start to its end, when those
     * bytes belong to the buffer it was sliced from; else null.
     */
    public static MemorySegment reachingBelow(Buffer buffer, long below) {
        Origin origin = ORIGINS.get(new Key(buffer, null));
        if (origin == null || origin.offset() < below) {
            return null;
        }
        long end = origin.offset() + MemorySegment.ofBuffer(buffer.duplicate().clear()).byteSize();
        return origin.parent().asSlice(origin.offset() - below, end - origin.offset() + below);
    }

    /** A buffer by identity (java.nio buffers compare by content), weakly. */
    private static final class Key extends WeakReference<Buffer> {
        private final int hash;

        Key(Buffer buffer, ReferenceQueue<Buffer> queue) {
            super(buffer, queue);
            this.hash = System.identityHashCode(buffer);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return other == this || other instanceof Key key && key.get() != null && key.get() == get();
        }
    }
}
