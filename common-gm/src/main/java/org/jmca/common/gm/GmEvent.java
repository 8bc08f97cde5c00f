package org.jmca.common.gm;

import java.lang.foreign.MemorySegment;

/** What {@link GmPort#receive} returns: nothing, or a message placed in a provided buffer. */
public sealed interface GmEvent {
    /** {@code GM_NO_RECV_EVENT}. */
    GmEvent NONE = new None();

    record None() implements GmEvent {
    }

    /**
     * {@code GM_RECV_EVENT} (or {@code GM_HIGH_RECV_EVENT}): a message filled {@code buffer}, the
     * one provided with {@code tag}; the buffer and its receive token are the application's again.
     */
    record Received(MemorySegment buffer, int length, int size, GmPriority priority, int tag, int senderNode,
                    int senderPort) implements GmEvent {
    }
}
