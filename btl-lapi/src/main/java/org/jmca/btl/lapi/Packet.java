package org.jmca.btl.lapi;

/**
 * The packets of the emulated LAPI switch. A packet is one record of a {@code SharedRing} (its
 * tag is the kind) or one frame of the TCP wire ({@code byte kind} first), laid out as:
 *
 * <pre>
 *   0 | message id (long)   the origin's number for the operation the packet belongs to
 *   8 | a (long)            \
 *  16 | b (long)             } by kind, below
 *  24 | c (long)            /
 *  32 | flags (long)        LAST, and for an active message the user header's length (bits 16-31)
 *  40 | payload             data, or an active message's user header then data
 * </pre>
 *
 * <table>
 *   <caption>Fields by kind</caption>
 *   <tr><td>PUT</td><td>a: target address of this packet's data; b: target counter</td></tr>
 *   <tr><td>GET</td><td>a: target address; b: length; c: target counter</td></tr>
 *   <tr><td>GET_REPLY</td><td>a: offset in the origin's buffer; c: status</td></tr>
 *   <tr><td>AM</td><td>a: handler; b: data length; c: target counter (first packet)</td></tr>
 *   <tr><td>AM_DATA</td><td>a: offset in the data (later packets)</td></tr>
 *   <tr><td>ACK</td><td>c: status (a put or active message is complete at the target)</td></tr>
 *   <tr><td>RMW</td><td>a: target address; b: operand; c: comparand; flags bits 8-15: the operation</td></tr>
 *   <tr><td>RMW_REPLY</td><td>a: the previous value; c: status</td></tr>
 * </table>
 *
 * The packets of one message follow each other on the way from one task to another (a sender
 * finishes one message before it starts the next to that target), so a target keeps one message
 * in progress per origin.
 */
final class Packet {
    static final byte PUT = 1;
    static final byte GET = 2;
    static final byte GET_REPLY = 3;
    static final byte AM = 4;
    static final byte AM_DATA = 5;
    static final byte ACK = 6;
    static final byte RMW = 7;
    static final byte RMW_REPLY = 8;

    static final int HEADER = 40;
    static final int A = 8;
    static final int B = 16;
    static final int C = 24;
    static final int FLAGS = 32;

    /** The packet ends its message. */
    static final long LAST = 1;

    // Statuses carried back to the origin.
    static final long OK = 0;
    static final long NOT_EXPOSED = 1;
    static final long NO_HANDLER = 2;
    static final long SHORT_BUFFER = 3;
    static final long MISALIGNED = 4;
    static final long NO_COUNTER = 5;
    static final long HANDLER_FAILED = 6;
    static final long MALFORMED = 7;

    private Packet() {
    }

    static long userHeaderFlags(int userHeaderLength) {
        return (long) userHeaderLength << 16;
    }

    static int userHeaderLength(long flags) {
        return (int) (flags >>> 16) & 0xFFFF;
    }

    static long rmwFlags(int op) {
        return (long) op << 8;
    }

    static int rmwOp(long flags) {
        return (int) (flags >>> 8) & 0xFF;
    }

    /** What a status means, for the error the origin reports. */
    static String describe(long status) {
        return switch ((int) status) {
            case (int) OK -> "ok";
            case (int) NOT_EXPOSED -> "the address range is not in memory the target exposed";
            case (int) NO_HANDLER -> "no header handler is registered under that index at the target";
            case (int) SHORT_BUFFER -> "the target's header handler gave a buffer shorter than the data";
            case (int) MISALIGNED -> "the address is not aligned to 8 bytes";
            case (int) NO_COUNTER -> "the target counter reference is not one the target gave out";
            case (int) HANDLER_FAILED -> "the target's handler threw";
            case (int) MALFORMED -> "the target received a malformed packet of the operation";
            default -> "status " + status;
        };
    }

    /** True for the kinds a task sends. */
    static boolean known(byte kind) {
        return kind >= PUT && kind <= RMW_REPLY;
    }

    static String kindName(byte kind) {
        return switch (kind) {
            case PUT -> "put";
            case GET -> "get";
            case GET_REPLY -> "get reply";
            case AM -> "active message";
            case AM_DATA -> "active message data";
            case ACK -> "acknowledgement";
            case RMW -> "read-modify-write";
            case RMW_REPLY -> "read-modify-write reply";
            default -> "kind " + kind;
        };
    }
}
