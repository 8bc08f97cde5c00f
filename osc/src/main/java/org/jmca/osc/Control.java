package org.jmca.osc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The messages of a window's active-message protocol, on the window's control context (one
 * wildcard receive always posted at every rank). Larger data travels apart, on the data context,
 * tagged by the operation: {@link #dataTag} origin to target, {@link #replyTag} back.
 *
 * <pre>
 *   0 | kind (long)
 *   8 | operation id (long)          the origin's number for it, counted per origin
 *  16 | displacement in bytes (long)
 *  24 | data bytes (long)
 *  32 | op code (int) | type code (int)
 *  40 | count (long)                 cumulative operations sent (FLUSH, UNLOCK, COMPLETE, FENCE),
 *     |                              a lock type (LOCK), a round (FENCE, FREE)
 *  48 | element size (long)
 *  56 | 1 if the data follows inline (long)
 *  64 | inline data, up to {@link #INLINE} bytes
 * </pre>
 */
final class Control {
    static final int HEADER = 64;
    /** Data up to this size travels inside its control message. */
    static final int INLINE = 1024;
    static final int MAX = HEADER + INLINE;

    // Operations: queued at the target per origin and carried out in order.
    static final int PUT = 1;
    static final int GET = 2;
    static final int ACCUMULATE = 3;
    static final int GET_ACCUMULATE = 4;
    static final int COMPARE_AND_SWAP = 5;
    // Synchronization, origin to target.
    static final int LOCK = 10;
    static final int UNLOCK = 11;
    static final int FLUSH = 12;
    static final int COMPLETE = 13;
    static final int FENCE = 14;
    static final int FREE = 15;
    // Answers and notices, target to origin.
    static final int LOCK_GRANTED = 20;
    static final int UNLOCK_DONE = 21;
    static final int FLUSH_DONE = 22;
    static final int POST = 23;

    static final int KIND = 0;
    static final int ID = 8;
    static final int DISP = 16;
    static final int BYTES = 24;
    static final int OP_TYPE = 32;
    static final int COUNT = 40;
    static final int ELEMENT = 48;
    static final int INLINE_FLAG = 56;

    private Control() {
    }

    /** A control message with no data. */
    static MemorySegment of(int kind, long id, long count) {
        MemorySegment m = MemorySegment.ofArray(new long[HEADER / 8]);
        m.set(ValueLayout.JAVA_LONG, KIND, kind);
        m.set(ValueLayout.JAVA_LONG, ID, id);
        m.set(ValueLayout.JAVA_LONG, COUNT, count);
        return m;
    }

    /** An operation's control message; its data, when it fits, copied in. */
    static MemorySegment operation(int kind, long id, long disp, MemorySegment data, int op, int type, int element) {
        boolean inline = data.byteSize() <= INLINE;
        MemorySegment m = MemorySegment.ofArray(new long[(int) ((HEADER + (inline ? data.byteSize() : 0) + 7) / 8)]);
        m.set(ValueLayout.JAVA_LONG, KIND, kind);
        m.set(ValueLayout.JAVA_LONG, ID, id);
        m.set(ValueLayout.JAVA_LONG, DISP, disp);
        m.set(ValueLayout.JAVA_LONG, BYTES, data.byteSize());
        m.set(ValueLayout.JAVA_LONG, OP_TYPE, (long) op << 32 | (type & 0xFFFF_FFFFL));
        m.set(ValueLayout.JAVA_LONG, ELEMENT, element);
        m.set(ValueLayout.JAVA_LONG, INLINE_FLAG, inline ? 1 : 0);
        if (inline) {
            MemorySegment.copy(data, 0, m, HEADER, data.byteSize());
        }
        return inline ? m.asSlice(0, HEADER + data.byteSize()) : m;
    }

    static boolean inline(long bytes) {
        return bytes <= INLINE;
    }

    /** The tag of an operation's data, origin to target. */
    static int dataTag(long id) {
        return (int) ((id & 0x0FFF_FFFFL) << 1);
    }

    /** The tag of an operation's reply, target to origin. */
    static int replyTag(long id) {
        return dataTag(id) + 1;
    }
}
