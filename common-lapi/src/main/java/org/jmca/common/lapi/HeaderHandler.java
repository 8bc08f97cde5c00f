package org.jmca.common.lapi;

import java.lang.foreign.MemorySegment;

/**
 * An active message's header handler: runs at the target, inside the dispatcher, when the first
 * packet of the message arrives, once per message. Registered under the same index at every task
 * ({@link Lapi#registerHandler}), as LAPI's {@code LAPI_Addr_set} does with function addresses.
 */
@FunctionalInterface
public interface HeaderHandler {

    /**
     * @param origin     the sending task
     * @param userHeader the header the origin passed, valid only during the call
     * @param dataLength bytes of data that follow
     * @return where the data goes and what runs once it is there
     */
    Reception onHeader(int origin, MemorySegment userHeader, long dataLength);
}
