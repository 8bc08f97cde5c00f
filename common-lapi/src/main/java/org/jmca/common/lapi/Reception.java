package org.jmca.common.lapi;

import java.lang.foreign.MemorySegment;

/**
 * What a header handler answers: where the active message's data goes, and what runs once it is
 * all there.
 *
 * @param buffer     at least as many bytes as the message's data (may be null when it has none)
 * @param completion run once the data is in place; null for nothing
 */
public record Reception(MemorySegment buffer, CompletionHandler completion) {

    /** Data into {@code buffer}, nothing to run after. */
    public static Reception into(MemorySegment buffer) {
        return new Reception(buffer, null);
    }
}
