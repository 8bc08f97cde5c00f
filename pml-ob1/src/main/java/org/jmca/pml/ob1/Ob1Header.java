package org.jmca.pml.ob1;

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
 *    | context << 32 | source    |             | the two words of MATCH    |
 *  8 | tag << 32 | sequence no.  |          16 | total length      (long)  |
 * 16 +---------------------------+ payload... 24 | send request id   (long)  |
 *                                           32 | address for GET   (long)  |  0: none
 *                                           40 | key for GET       (long)  |  the BTL's (an rkey)
 *                                           48 +---------------------------+ payload...
 *
 * ACK (receiver matched a RNDV)             FRAG (the rest of a rendezvous message)
 *  0 | send request id    (long) |           0 | receive request id (long) |
 *  8 | receive request id (long) |           8 | offset in message  (long) |
 * 16 | bytes wanted       (long) |          16 +---------------------------+ payload...
 * 24 | address for PUT    (long) |  0: none
 * 32 | key for PUT        (long) |
 * 40 +---------------------------+
 *
 * FIN (receiver read the message itself)    PUT_FIN (sender wrote the rest itself)
 *  0 | send request id    (long) |           0 | receive request id (long) |
 *  8 +---------------------------+           8 +---------------------------+
 * </pre>
 *
 * "Bytes wanted" is min(total length, receive buffer size): a truncating receiver asks only for
 * what it can hold, and the sender stops there. A RNDV with an address lets a receiver whose BTL
 * can GET read the whole message itself (RGET) and answer with FIN instead of ACK: the sender is
 * done without sending anything more. An ACK with an address lets a sender whose BTL can PUT
 * write the rest straight into the receiver's buffer (RPUT) and say so with PUT_FIN.
 */
final class Ob1Header {
    static final byte TAG_MATCH = 1;
    static final byte TAG_RNDV = 2;
    static final byte TAG_ACK = 3;
    static final byte TAG_FRAG = 4;
    static final byte TAG_FIN = 5;
    static final byte TAG_PUT_FIN = 6;

    static final int MATCH_LENGTH = 16;
    static final int RNDV_LENGTH = 48;
    static final int ACK_LENGTH = 40;
    static final int FRAG_LENGTH = 16;
    static final int FIN_LENGTH = 8;

    private static final long TOTAL = 16;
    private static final long SEND_ID = 24;
    private static final long ADDRESS = 32;
    private static final long KEY = 40;

    private Ob1Header() {
    }

    /** The first word of a MATCH (and RNDV) header. */
    static long matchWord0(int context, int source) {
        return (long) context << 32 | (source & 0xFFFF_FFFFL);
    }

    /** The second word of a MATCH (and RNDV) header. */
    static long matchWord1(int tag, int seq) {
        return (long) tag << 32 | (seq & 0xFFFF_FFFFL);
    }

    /** The int in a header word's high half (context, tag). */
    static int high(long word) {
        return (int) (word >>> 32);
    }

    /** The int in a header word's low half (source, sequence number). */
    static int low(long word) {
        return (int) word;
    }

    /** Writes a RNDV header into {@code h} of exactly {@link #RNDV_LENGTH} bytes. */
    static MemorySegment writeRndv(MemorySegment h, int context, int source, int tag, int seq, long total, long sendId,
                                   long address, long key) {
        h.set(JAVA_LONG_UNALIGNED, 0, matchWord0(context, source));
        h.set(JAVA_LONG_UNALIGNED, 8, matchWord1(tag, seq));
        h.set(JAVA_LONG_UNALIGNED, TOTAL, total);
        h.set(JAVA_LONG_UNALIGNED, SEND_ID, sendId);
        h.set(JAVA_LONG_UNALIGNED, ADDRESS, address);
        h.set(JAVA_LONG_UNALIGNED, KEY, key);
        return h;
    }

    /** Writes an ACK header into {@code h} of exactly {@link #ACK_LENGTH} bytes. */
    static MemorySegment writeAck(MemorySegment h, long sendId, long recvId, long wanted, long putAddress,
                                  long putKey) {
        h.set(JAVA_LONG_UNALIGNED, 0, sendId);
        h.set(JAVA_LONG_UNALIGNED, 8, recvId);
        h.set(JAVA_LONG_UNALIGNED, 16, wanted);
        h.set(JAVA_LONG_UNALIGNED, 24, putAddress);
        h.set(JAVA_LONG_UNALIGNED, 32, putKey);
        return h;
    }

    /** Writes a FIN (or PUT_FIN) header into {@code h} of exactly {@link #FIN_LENGTH} bytes. */
    static MemorySegment writeFin(MemorySegment h, long requestId) {
        h.set(JAVA_LONG_UNALIGNED, 0, requestId);
        return h;
    }

    /** Writes a FRAG header into {@code h} of exactly {@link #FRAG_LENGTH} bytes. */
    static MemorySegment writeFrag(MemorySegment h, long recvId, long offset) {
        h.set(JAVA_LONG_UNALIGNED, 0, recvId);
        h.set(JAVA_LONG_UNALIGNED, 8, offset);
        return h;
    }

    // Readers: the fragment starts at {@code at} in {@code f}.

    /** The first word of a MATCH or RNDV header: context and source. */
    static long word0(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at);
    }

    /** The second word of a MATCH or RNDV header: tag and sequence number. */
    static long word1(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at + 8);
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

    static long key(MemorySegment f, long at) {
        return f.get(JAVA_LONG_UNALIGNED, at + KEY);
    }

    /** Field {@code index} (from 0) of an ACK, FRAG, FIN or PUT_FIN header, all made of longs. */
    static long longField(MemorySegment f, long at, int index) {
        return f.get(JAVA_LONG_UNALIGNED, at + 8L * index);
    }
}
