package org.jmca.coll.mcast;

import java.nio.ByteBuffer;

/**
 * The datagrams of coll/mcast: a 32-byte header, then for DATA a fragment of the message.
 *
 * <pre>
 *  0 job       the job's number: datagrams of other jobs on the same port are dropped
 *  4 comm      the communicator (its context and members)
 *  8 kind      DATA, ACK, NACK, GROUP_ACK or ACK_REQUEST
 *  9 flags     RETRANSMIT, ACK_NOW, DIRECT, HELD, CREDIT
 * 12 sender    the sender's rank in the communicator
 * 16 seq       the broadcast's number on the communicator (every rank counts its calls alike); for ACK
 *              and GROUP_ACK the highest message delivered (or served, for a co-root's group)
 * 20 root      the broadcast's root
 * 24 total     the message's length
 * 28 offset    the fragment's offset (NACK: the first byte missing; ACK: the credits granted, messages
 *              the receiver holds beyond seq)
 * </pre>
 */
final class Packet {
    static final int HEADER = 32;
    /** The largest datagram: what UDP over IPv4 carries. */
    static final int MAX_DATAGRAM = 65_507;

    static final byte DATA = 1;
    static final byte ACK = 2;
    static final byte NACK = 3;
    static final byte GROUP_ACK = 4;
    /** A root or co-root asks whether a message arrived: the answer is an ACK, a group ACK, or a NACK. */
    static final byte ACK_REQUEST = 5;

    static final byte RETRANSMIT = 1;
    /** The receiver answers with an acknowledgement at once, even if it already has the message. */
    static final byte ACK_NOW = 2;
    /** A NACK sent to the collector alone (the NACK scheme also multicasts one, so others keep quiet). */
    static final byte DIRECT = 4;
    /** An ACK that answers a question about a message the receiver holds whole but has not delivered yet (seq: that one). */
    static final byte HELD = 8;
    /** An ACK_REQUEST of a root out of credit: the answer is an ACK of how far the receiver has delivered. */
    static final byte CREDIT = 16;

    private Packet() {
    }

    /** Starts a datagram in {@code out} (cleared): the header, positioned for the payload. */
    static void start(ByteBuffer out, int job, int communicator, byte kind, byte flags, int sender, int seq, int root,
                      int total, int offset) {
        out.clear();
        out.putInt(job).putInt(communicator).put(kind).put(flags).putShort((short) 0).putInt(sender).putInt(seq)
                .putInt(root).putInt(total).putInt(offset);
    }

    static int job(ByteBuffer in) {
        return in.getInt(0);
    }

    static int communicator(ByteBuffer in) {
        return in.getInt(4);
    }

    static byte kind(ByteBuffer in) {
        return in.get(8);
    }

    static byte flags(ByteBuffer in) {
        return in.get(9);
    }

    static int sender(ByteBuffer in) {
        return in.getInt(12);
    }

    static int seq(ByteBuffer in) {
        return in.getInt(16);
    }

    static int root(ByteBuffer in) {
        return in.getInt(20);
    }

    static int total(ByteBuffer in) {
        return in.getInt(24);
    }

    static int offset(ByteBuffer in) {
        return in.getInt(28);
    }
}
