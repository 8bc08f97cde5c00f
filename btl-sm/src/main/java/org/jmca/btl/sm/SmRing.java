package org.jmca.btl.sm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jmca.mca.BulkCopy;

/**
 * A single-producer, single-consumer ring of fragments in shared memory: one sending process
 * writes, one receiving process reads; wait-free on both sides, no lock, no allocation.
 *
 * <pre>
 *    0 +--------------------------------+
 *      | (unused: the producer's line)   |
 *  128 +--------------------------------+
 *      | head: bytes ever consumed (long)|  the consumer's cache lines (128 bytes apart, so the
 *  256 +--------------------------------+  adjacent-line prefetcher keeps them apart)
 *      | data: capacity bytes (2^k)      |  records, each aligned to 16 bytes:
 *      |                                 |    0 stamp = position + 1 (long, written last)
 *      |                                 |    8 length = 16 + n      (int)
 *      |                                 |   12 tag                  (byte; 0 pads to the end)
 *      |                                 |   16 n bytes: header then payload
 *      +--------------------------------+
 * </pre>
 *
 * A record is published by a release store of its stamp: its absolute position in the stream,
 * plus one, so neither zeroed memory nor a stale record from an earlier lap can pass for it. The
 * consumer polls the stamp at its head with an acquire load, so a small message costs the
 * consumer one cache line — the stamp travels with the data, as in a fast box — rather than a
 * tail line and then the data line. It releases the head once it has handled what was there; the
 * producer reads the head only when the space it last saw runs out. A record never wraps: when
 * one would, a padding record fills the end and it starts at 0.
 */
final class SmRing {
    static final int HEAD_OFFSET = 128;
    static final int DATA_OFFSET = 256;
    static final int RECORD_HEADER = 16;
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
    /** Producer side: bytes it has written and the consumer's head it last saw. */
    private long tail;
    private long headSeen;
    /** Consumer side: the head it last released. */
    private long head;

    /**
     * A view of the ring at {@code offset} in a mapped segment, whose memory must start zeroed.
     * A ring has one producer view and one consumer view, each made once.
     */
    SmRing(MemorySegment segment, long offset, int capacity) {
        checkCapacity(capacity);
        this.ring = segment.asSlice(offset, bytesFor(capacity));
        this.data = ring.asSlice(DATA_OFFSET, capacity);
        this.capacity = capacity;
        this.mask = capacity - 1L;
        this.head = (long) LONG.getAcquire(ring, (long) HEAD_OFFSET);
        this.headSeen = head;
        this.tail = head;
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

    private static int align(int length) {
        return (length + 15) & ~15;
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
            data.set(ValueLayout.JAVA_INT, index + 8, toEnd);
            data.set(ValueLayout.JAVA_BYTE, index + 12, PAD);
            LONG.setRelease(data, (long) index, t + 1);
            t += toEnd;
            index = 0;
        }
        data.set(ValueLayout.JAVA_INT, index + 8, length);
        data.set(ValueLayout.JAVA_BYTE, index + 12, tag);
        MemorySegment.copy(header, 0, data, index + RECORD_HEADER, header.byteSize());
        BulkCopy.copy(payload, 0, data, index + RECORD_HEADER + header.byteSize(), payload.byteSize());
        LONG.setRelease(data, (long) index, t + 1);
        tail = t + aligned;
        return true;
    }

    /** Consumer: true if a record waits at the head (a padding record counts). */
    boolean hasRecord() {
        return (long) LONG.getAcquire(data, (long) (head & mask)) == head + 1;
    }

    /** Consumer: hands every published record to {@code handler}, then frees their space. Returns how many. */
    int poll(Handler handler) {
        long h = head;
        int records = 0;
        while (true) {
            int index = (int) (h & mask);
            if ((long) LONG.getAcquire(data, (long) index) != h + 1) {
                break;
            }
            int length = data.get(ValueLayout.JAVA_INT, index + 8);
            if (data.get(ValueLayout.JAVA_BYTE, index + 12) == PAD) {
                h += length;
                continue;
            }
            handler.onRecord(data.get(ValueLayout.JAVA_BYTE, index + 12), data, index + RECORD_HEADER,
                    length - RECORD_HEADER);
            h += align(length);
            records++;
        }
        if (h != head) {
            head = h;
            LONG.setRelease(ring, (long) HEAD_OFFSET, h);
        }
        return records;
    }
}
