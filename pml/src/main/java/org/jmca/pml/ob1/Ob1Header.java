package org.jmca.pml.ob1;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The headers of ob1's fragments. The BTL's active-message tag says which header a fragment
 * starts with; the payload follows the header. Fields are in the host's byte order (JMCA runs
 * on homogeneous hosts).
 *
 * <pre>
 * MATCH (eager: the whole message)          RNDV (rendezvous start: the first bytes)
 *  0 +---------------------------+           0 +---------------------------+
 *    | context            (int)  |             | context, source, tag, seq |  as MATCH
 *  4 | source rank        (int)  |          16 | total length      (long)  |
 *  8 | tag                (int)  |          24 | send request id   (long)  |
 * 12 | sequence number    (int)  |          32 | address for GET   (long)  |  0: none
 * 16 +---------------------------+ payload... 40 +---------------------------+ payload...
 *
 * ACK (receiver matched a RNDV)             FRAG (the rest of a rendezvous message)
 *  0 | send request id    (long) |           0 | receive request id (long) |
 *  8 | receive request id (long) |           8 | offset in message  (long) |
 * 16 | bytes wanted       (long) |          16 +---------------------------+ payload...
 * 24 +---------------------------+
 *
 * FIN (receiver read the message itself)
 *  0 | send request id    (long) |
 *  8 +---------------------------+
 * </pre>
 *
 * "Bytes wanted" is min(total length, receive buffer size): a truncating receiver asks only for
 * what it can hold, and the sender stops there. A RNDV with an address lets a receiver whose BTL
 * can GET read the whole message itself (RGET) and answer with FIN instead of ACK: the sender is
 * done without sending anything more.
 */
final class Ob1Header {
    static final byte TAG_MATCH = 1;
    static final byte TAG_RNDV = 2;
    static final byte TAG_ACK = 3;
    static final byte TAG_FRAG = 4;
    static final byte TAG_FIN = 5;

    static final int MATCH_LENGTH = 16;
    static final int RNDV_LENGTH = 40;
    static final int ACK_LENGTH = 24;
    static final int FRAG_LENGTH = 16;
    static final int FIN_LENGTH = 8;

    private static final long CONTEXT = 0;
    private static final long SOURCE = 4;
    private static final long TAG = 8;
    private static final long SEQ = 12;
    private static final long TOTAL = 16;
    private static final long SEND_ID = 24;
    private static final long ADDRESS = 32;

    private Ob1Header() {
    }

    /** Writes a MATCH header into {@code h}, a segment of exactly {@link #MATCH_LENGTH} bytes, and returns it. */
    static MemorySegment writeMatch(MemorySegment h, int context, int source, int tag, int seq) {
        h.set(JAVA_INT_UNALIGNED, CONTEXT, context);
        h.set(JAVA_INT_UNALIGNED, SOURCE, source);
        h.set(JAVA_INT_UNALIGNED, TAG, tag);
        h.set(JAVA_INT_UNALIGNED, SEQ, seq);
        return h;
    }

    /** Writes a RNDV header into {@code h} of exactly {@link #RNDV_LENGTH} bytes. */
    static MemorySegment writeRndv(MemorySegment h, int context, int source, int tag, int seq, long total, long sendId,
                                   long address) {
        writeMatch(h, context, source, tag, seq);
        h.set(JAVA_LONG_UNALIGNED, TOTAL, total);
        h.set(JAVA_LONG_UNALIGNED, SEND_ID, sendId);
        h.set(JAVA_LONG_UNALIGNED, ADDRESS, address);
        return h;
    }

    /** Writes an ACK header into {@code h} of exactly {@link #ACK_LENGTH} bytes. */
    static MemorySegment writeAck(MemorySegment h, long sendId, long recvId, long wanted) {
        h.set(JAVA_LONG_UNALIGNED, 0, sendId);
        h.set(JAVA_LONG_UNALIGNED, 8, recvId);
        h.set(JAVA_LONG_UNALIGNED, 16, wanted);
        return h;
    }

    /** Writes a FIN header into {@code h} of exactly {@link #FIN_LENGTH} bytes. */
    static MemorySegment writeFin(MemorySegment h, long sendId) {
        h.set(JAVA_LONG_UNALIGNED, 0, sendId);
        return h;
    }

    /** Writes a FRAG header into {@code h} of exactly {@link #FRAG_LENGTH} bytes. */
    static MemorySegment writeFrag(MemorySegment h, long recvId, long offset) {
        h.set(JAVA_LONG_UNALIGNED, 0, recvId);
        h.set(JAVA_LONG_UNALIGNED, 8, offset);
        return h;
    }

    // Readers: the fragment starts at {@code at} in {@code f}.

    static int context(MemorySegment f, long at) {
        return f.get(JAVA_INT_UNALIGNED, at + CONTEXT);
    }

    static int source(MemorySegment f, long at) {
        return f.get(JAVA_INT_UNALIGNED, at + SOURCE);
    }

    static int tag(MemorySegment f, long at) {
        return f.get(JAVA_INT_UNALIGNED, at + TAG);
    }

    static int seq(MemorySegment f, long at) {
        return f.get(JAVA_INT_UNALIGNED, at + SEQ);
    }

    static long total(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at + TOTAL);
    }

    static long sendId(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at + SEND_ID);
    }

    static long address(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at + ADDRESS);
    }

    /** Field {@code index} (0, 1, 2) of an ACK, FRAG or FIN header, all made of longs. */
    static long longField(MemorySegment f, long at, int index) {
        return f.get(JAVA_LONG_UNALIGNED, at + 8L * index);
    }
}
