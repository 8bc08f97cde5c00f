package org.jmca.mca.btl;

import java.lang.foreign.MemorySegment;

/**
 * The upcall through which a module hands arriving fragments to the layer above (the PML).
 * Called on the thread that runs progress; the segment is valid only during the call, so the
 * receiver copies what it keeps.
 */
@FunctionalInterface
public interface BtlReceiver {
    /**
     * @param from     the endpoint of the sending peer
     * @param tag      the active-message tag given to {@link BtlModule#send}
     * @param fragment the header followed by the payload, as sent
     */
    void onFragment(BtlEndpoint from, byte tag, MemorySegment fragment);
}
