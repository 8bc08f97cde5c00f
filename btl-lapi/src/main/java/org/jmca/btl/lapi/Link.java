package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;

/**
 * How the dispatcher reaches one task: its ring in the task's file on this host
 * ({@link RingLink}), or the TCP wire to another host ({@link WireLink}).
 */
sealed interface Link permits RingLink, WireLink {

    /**
     * Puts one packet on its way: the 40-byte {@code header} then {@code payload}.
     *
     * @return false when there is no room now (flow control): try again after more progress
     */
    boolean offer(byte kind, MemorySegment header, MemorySegment payload);

    /** Wakes the task's notification thread if it sleeps, after packets went out. */
    void wake();

    /** Why the task cannot be reached any more, or null while it can. */
    String lost();
}
