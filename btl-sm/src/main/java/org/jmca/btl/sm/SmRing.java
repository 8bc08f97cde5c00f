package org.jmca.btl.sm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A single-producer, single-consumer ring of fragments in shared memory: one sending process
 * writes, one receiving process reads; wait-free on both sides, no lock, no allocation.
 *
 * <pre>
 *    0 +--------------------------------+
 *      | tail: bytes ever written (long) |  the producer's cache lines (128 bytes, so the
 *  128 +--------------------------------+  adjacent-line prefetcher keeps them apart)
 *      | head: bytes ever consumed (long)|  the consumer's cache lines
 *  256 +--------------------------------+
 *      | data: capacity bytes (2^k)      |  records, each aligned to 8 bytes:
 *      |                                 |    0 length = 8 + n   (int)
 *      |                                 |    4 tag              (byte; 0 pads to the end)
 *      |                                 |    8 n bytes: header then payload
 *      +--------------------------------+
 * </pre>
 *
 * The producer writes a record, then publishes it by a release store of the tail; the consumer
 * reads the tail with an acquire load, handles every record up to it, then releases the head.
 * A record never wraps: when one would, a padding record fills the end and it starts at 0.
 */
final class SmRing {
    static final int TAIL_OFFSET = 0;
    static final int HEAD_OFFSET = 128;
    static final int DATA_OFFSET = 256;
    static final int RECORD_HEADER = 8;
    static final byte PAD = 0;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** Receives the records {@link #poll} hands out: {@code length} bytes of {@code data} at {@code offset}, valid during the call. */
    interface Handler {
        void onRecord(byte tag, MemorySegment data, long offset, long length);
    }

    private final MemorySegment ring;
    private final MemorySegment data;
    private final int capacity;
    private final long mask;
    /** Producer side: the tail it last published and the head it last saw. */
    private long tail;
    private long headSeen;
    /** Consumer side: the head it last released. */
    private long head;

    /** A view of the ring at {@code offset} in a mapped segment; the memory must start zeroed. */
    SmRing(MemorySegment segment, long offset, int capacity) {
        checkCapacity(capacity);
        this.ring = segment.asSlice(offset, bytesFor(capacity));
        this.data = ring.asSlice(DATA_OFFSET, capacity);
        this.capacity = capacity;
        this.mask = capacity - 1L;
        this.tail = (long) LONG.getAcquire(ring, (long) TAIL_OFFSET);
        this.head = (long) LONG.getAcquire(ring, (long) HEAD_OFFSET);
        this.headSeen = head;
    }

    /** Bytes a ring of {@code capacity} data bytes occupies. */
    static long bytesFor(int capacity) {
        return DATA_OFFSET + (long) capacity;
    }

    static void checkCapacity(int capacity) {
        if (capacity < 1024 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity " + capacity + " must be a power of two of at least 1024");
        }
    }

    /** The largest header plus payload one record can carry. */
    int maxFragment() {
        return capacity / 4 - RECORD_HEADER;
    }

    private static int align(int length) {
        return (length + 7) & ~7;
    }

    /**
     * Producer: appends a record made of {@code header} then {@code payload}.
     *
     * @return false when the ring has no room now (the consumer has not caught up)
     */
    boolean offer(byte tag, MemorySegment header, MemorySegment payload) {
        int length = RECORD_HEADER + (int) header.byteSize() + (int) payload.byteSize();
        int aligned = align(length);
        long t = tail;
        int index = (int) (t & mask);
        int toEnd = capacity - index;
        long needed = aligned <= toEnd ? aligned : aligned + (long) toEnd;
        if (t + needed - headSeen > capacity) {
            headSeen = (long) LONG.getAcquire(ring, (long) HEAD_OFFSET);
            if (t + needed - headSeen > capacity) {
                return false;
            }
        }
        if (aligned > toEnd) {
            data.set(ValueLayout.JAVA_INT, index, toEnd);
            data.set(ValueLayout.JAVA_BYTE, index + 4, PAD);
            t += toEnd;
            index = 0;
        }
        data.set(ValueLayout.JAVA_INT, index, length);
        data.set(ValueLayout.JAVA_BYTE, index + 4, tag);
        MemorySegment.copy(header, 0, data, index + RECORD_HEADER, header.byteSize());
        MemorySegment.copy(payload, 0, data, index + RECORD_HEADER + header.byteSize(), payload.byteSize());
        t += aligned;
        tail = t;
        LONG.setRelease(ring, (long) TAIL_OFFSET, t);
        return true;
    }

    /** Consumer: hands every published record to {@code handler}, then frees their space. Returns how many. */
    int poll(Handler handler) {
        long t = (long) LONG.getAcquire(ring, (long) TAIL_OFFSET);
        long h = head;
        if (h == t) {
            return 0;
        }
        int records = 0;
        while (h < t) {
            int index = (int) (h & mask);
            int length = data.get(ValueLayout.JAVA_INT, index);
            byte tag = data.get(ValueLayout.JAVA_BYTE, index + 4);
            if (tag == PAD) {
                h += length;
                continue;
            }
            handler.onRecord(tag, data, index + RECORD_HEADER, length - RECORD_HEADER);
            h += align(length);
            records++;
        }
        head = h;
        LONG.setRelease(ring, (long) HEAD_OFFSET, h);
        return records;
    }

    /** Consumer: true if a record is waiting. */
    boolean hasRecords() {
        return (long) LONG.getAcquire(ring, (long) TAIL_OFFSET) != head;
    }
}
