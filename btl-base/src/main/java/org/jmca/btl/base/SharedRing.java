package org.jmca.btl.base;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jmca.mca.BulkCopy;
import org.jmca.mca.param.Param;

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
 *      | data: capacity bytes (2^k)      |  records, each starting a cache line:
 *      |                                 |    0 stamp = position + 1 (long, written last)
 *      |                                 |    8 length = 16 + n, tag  (long: length | tag << 32;
 *      |                                 |                             tag 0 pads to the end)
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
 *
 * <p>The ring reads and writes by absolute address through one segment that spans all memory,
 * rather than through a slice of the mapping: the JIT folds that segment's checks away, which
 * took 5 ns off every hop of a small message (8 %, {@code bench.internal.PmlSoftwarePath}).
 * Safety is kept by the ring itself: positions are masked to the capacity, a record's length read
 * from the peer is checked before use, and the module unmaps the segment only after it has stopped
 * sending and polling.
 */
public final class SharedRing {
    public static final int HEAD_OFFSET = 128;
    public static final int DATA_OFFSET = 256;
    public static final int RECORD_HEADER = 16;
    public static final byte PAD = 0;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** All of memory, addressed absolutely (see the class comment). */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /**
     * Receives the records {@link #poll} hands out: {@code length} bytes of {@code data} at
     * {@code offset} (an absolute address in a segment spanning all memory), valid during the call.
     */
    public interface Handler {
        void onRecord(byte tag, MemorySegment data, long offset, long length);
    }

    private final int capacity;
    private final long mask;
    /** Addresses of the data and of the head. */
    private final long dataAt;
    private final long headAt;
    /** Producer side: bytes it has written and the consumer's head it last saw. */
    private long tail;
    private long headSeen;
    /** Consumer side: the head it last released. */
    private long head;

    /**
     * A view of the ring at {@code offset} in a mapped segment, whose memory must start zeroed.
     * A ring has one producer view and one consumer view, each made once.
     */
    public SharedRing(MemorySegment segment, long offset, int capacity) {
        checkCapacity(capacity);
        MemorySegment ring = segment.asSlice(offset, bytesFor(capacity));
        this.capacity = capacity;
        this.mask = capacity - 1L;
        this.dataAt = ring.address() + DATA_OFFSET;
        this.headAt = ring.address() + HEAD_OFFSET;
        this.head = (long) LONG.getAcquire(ALL, headAt);
        if ((head & 63) != 0) { // every record starts on a cache line: another head is a corrupt file's
            throw new IllegalStateException("btl/sm: corrupt ring: its head " + head + " is not at a record");
        }
        this.headSeen = head;
        this.tail = head;
    }

    /** Bytes a ring of {@code capacity} data bytes occupies. */
    public static long bytesFor(int capacity) {
        return DATA_OFFSET + (long) capacity;
    }

    /**
     * A ring-size parameter's value as a capacity: a power of two, at least {@code minimum} (and
     * 1024) and at most 1 GiB.
     *
     * @param minimumIs what the minimum is made of, for the error ("4 x (btl_sm_max_send_size=128k + 16)")
     */
    public static int capacity(Param<Long> ringSize, long minimum, String minimumIs) {
        long ring = ringSize.get();
        if (Long.bitCount(ring) != 1 || ring < Math.max(minimum, 1024) || ring > 1L << 30) {
            throw ringSize.invalid("must be a power of two from " + minimumIs + " to 1 GiB");
        }
        return (int) ring;
    }

    public static void checkCapacity(int capacity) {
        if (capacity < 1024 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity " + capacity + " must be a power of two of at least 1024");
        }
    }

    /**
     * A record's footprint: whole cache lines, so a small message (up to 48 bytes of header and
     * payload) is one line and the consumer takes one miss for it, not two when it straddles a
     * boundary (see BENCHMARKS.md, "The software path").
     */
    private static int align(int length) {
        return (length + 63) & ~63;
    }

    /**
     * Producer: appends a record made of {@code header} then {@code payload}.
     *
     * @return false when the ring has no room now (the consumer has not caught up)
     * @throws IllegalArgumentException for tag {@link #PAD} or a record larger than {@link #maxRecord}
     */
    public boolean offer(byte tag, MemorySegment header, MemorySegment payload) {
        int length = checkRecord(tag, header.byteSize() + payload.byteSize());
        int index = reserve(length);
        if (index < 0) {
            return false;
        }
        long at = dataAt + index + RECORD_HEADER;
        MemorySegment.copy(header, 0, ALL, at, header.byteSize());
        BulkCopy.copy(payload, 0, ALL, at + header.byteSize(), payload.byteSize());
        publish(index, length, tag);
        return true;
    }

    /**
     * Producer: appends a record made of a 16-byte header, given as two words, then
     * {@code payload}. The words are stored straight into the ring: the common small message
     * costs no header buffer and no second copy.
     *
     * @return false when the ring has no room now
     * @throws IllegalArgumentException for tag {@link #PAD} or a record larger than {@link #maxRecord}
     */
    public boolean offer(byte tag, long header0, long header1, MemorySegment payload) {
        int length = checkRecord(tag, 16 + payload.byteSize());
        int index = reserve(length);
        if (index < 0) {
            return false;
        }
        long at = dataAt + index + RECORD_HEADER;
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, at, header0);
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8, header1);
        BulkCopy.copy(payload, 0, ALL, at + 16, payload.byteSize());
        publish(index, length, tag);
        return true;
    }

    /**
     * The most header and payload bytes one record may carry: half the ring. A larger record
     * could wait for ever, since a record never wraps: from a tail near the middle, it fits
     * neither before the end nor, after the padding, in what the padding leaves.
     */
    public int maxRecord() {
        return maxRecord(capacity);
    }

    /** {@link #maxRecord()} of a ring of {@code capacity} bytes. */
    public static int maxRecord(int capacity) {
        return capacity / 2 - RECORD_HEADER;
    }

    /**
     * A record's length (its 16-byte record header included) once its tag and the {@code bytes}
     * of header and payload are known to be acceptable: a length taken from outside (a wire frame)
     * must never make the producer write past the ring, nor wait for room that never comes.
     */
    private int checkRecord(byte tag, long bytes) {
        if (tag == PAD) {
            throw new IllegalArgumentException("tag " + PAD + " is the ring's padding: no record may carry it");
        }
        if (bytes > maxRecord()) {
            throw new IllegalArgumentException("a record of " + bytes + " bytes does not fit a ring of " + capacity
                    + " bytes (at most " + maxRecord() + ")");
        }
        return RECORD_HEADER + (int) bytes;
    }

    /**
     * Makes room for a record of {@code length} bytes at the tail, first padding to the end of the
     * data if the record would wrap. Returns the record's index in the data, or -1 if the consumer
     * has not freed enough space yet.
     */
    private int reserve(int length) {
        int aligned = align(length);
        long t = tail;
        int index = (int) (t & mask);
        int toEnd = capacity - index;
        long needed = aligned <= toEnd ? aligned : aligned + (long) toEnd;
        if (t + needed - headSeen > capacity) {
            headSeen = (long) LONG.getAcquire(ALL, headAt);
            if (t + needed - headSeen > capacity) {
                return -1;
            }
        }
        if (aligned > toEnd) {
            publish(index, toEnd, PAD);
            index = 0;
        }
        return index;
    }

    /** Publishes the record written at the tail ({@code index}): its length and tag, then its stamp. */
    private void publish(int index, int length, byte tag) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, dataAt + index + 8, (length & 0xFFFF_FFFFL) | (long) (tag & 0xFF) << 32);
        LONG.setRelease(ALL, dataAt + index, tail + 1);
        tail += align(length);
    }

    /** Consumer: true if a record waits at the head (a padding record counts). */
    public boolean hasRecord() {
        return (long) LONG.getAcquire(ALL, dataAt + (head & mask)) == head + 1;
    }

    /**
     * Consumer: hands every published record to {@code handler}, then frees their space. Returns
     * how many. A record whose handler throws is consumed all the same (it is not handed over
     * again), and the exception propagates.
     */
    public int poll(Handler handler) {
        long h = head;
        int records = 0;
        try {
            while (true) {
                int index = (int) (h & mask);
                if ((long) LONG.getAcquire(ALL, dataAt + index) != h + 1) {
                    break;
                }
                long lengthAndTag = ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, dataAt + index + 8);
                int length = (int) lengthAndTag;
                byte tag = (byte) (lengthAndTag >>> 32);
                if (length < RECORD_HEADER || length > capacity - index) {
                    throw new IllegalStateException("btl/sm: corrupt ring: a record of " + length + " bytes at "
                            + index + " of " + capacity);
                }
                // Past the record before its handler runs: the finally releases it even if that throws.
                h += align(length);
                if (tag != PAD) {
                    records++;
                    handler.onRecord(tag, ALL, dataAt + index + RECORD_HEADER, length - RECORD_HEADER);
                }
            }
        } finally {
            if (h != head) {
                head = h;
                LONG.setRelease(ALL, headAt, h);
            }
        }
        return records;
    }
}
