package org.jmca.coll.gm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * coll/gm's message header, 48 bytes at the start of every GM message it sends: the call
 * (communicator context and call tag), the sender's rank in the communicator, the message's
 * place in the call's stream from sender to receiver, its kind and two operands.
 *
 * <pre>
 *  0 context  4 tag  8 source  12 seq  16 kind  20 flags/block  24 a (long)  32 b (long)  40 c (long)
 * </pre>
 *
 * <ul>
 *   <li>EAGER: the data follows; {@code a} is its length.</li>
 *   <li>RTS: a message of {@code a} bytes will come by directed sends.</li>
 *   <li>CTS: block {@code block} of message {@code seq}, its {@code b} bytes from offset {@code c}, may be
 *       written at address {@code a}.</li>
 *   <li>FIN: block {@code block} of message {@code seq} has been written.</li>
 *   <li>ACK: the receiver has taken the first {@code a} messages of the stream.</li>
 * </ul>
 */
final class Wire {
    static final int HEADER = 48;
    static final int EAGER = 1;
    static final int RTS = 2;
    static final int CTS = 3;
    static final int FIN = 4;
    static final int ACK = 5;
    /** Flag of a message whose receiver is asked to acknowledge the stream so far once it takes it. */
    static final int REQUEST = 1;
    /** Blocks of a rendezvous registered ahead of the transfer (at the receiver) and in flight. */
    static final int PIPELINE_DEPTH = 2;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private Wire() {
    }

    static void write(MemorySegment at, int context, int tag, int source, int seq, int kind, int flags, long a,
                      long b, long c) {
        at.set(INT, 0, context);
        at.set(INT, 4, tag);
        at.set(INT, 8, source);
        at.set(INT, 12, seq);
        at.set(INT, 16, kind);
        at.set(INT, 20, flags);
        at.set(LONG, 24, a);
        at.set(LONG, 32, b);
        at.set(LONG, 40, c);
    }

    static int context(MemorySegment m) {
        return m.get(INT, 0);
    }

    static int tag(MemorySegment m) {
        return m.get(INT, 4);
    }

    static int source(MemorySegment m) {
        return m.get(INT, 8);
    }

    static void setSource(MemorySegment m, int source) {
        m.set(INT, 8, source);
    }

    static int seq(MemorySegment m) {
        return m.get(INT, 12);
    }

    static int kind(MemorySegment m) {
        return m.get(INT, 16);
    }

    static int flags(MemorySegment m) {
        return m.get(INT, 20);
    }

    static long a(MemorySegment m) {
        return m.get(LONG, 24);
    }

    static long b(MemorySegment m) {
        return m.get(LONG, 32);
    }

    static long c(MemorySegment m) {
        return m.get(LONG, 40);
    }

    static MemorySegment payload(MemorySegment m) {
        return m.asSlice(HEADER, m.byteSize() - HEADER);
    }

    /**
     * Whether message {@code seq} of a stream asks for an acknowledgement: every half window, so
     * the answer is on its way before the sender runs out of window (the paper's request, sent
     * early). The same for every stream, so a forwarded message keeps its flags.
     */
    static int flagsFor(int seq, int window) {
        int half = Math.max(1, window / 2);
        return (seq + 1) % half == 0 ? REQUEST : 0;
    }
}
