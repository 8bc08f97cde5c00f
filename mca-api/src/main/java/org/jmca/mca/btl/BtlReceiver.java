package org.jmca.mca.btl;

import java.lang.foreign.MemorySegment;

/**
 * The upcall through which a module hands arriving fragments to the layer above (the PML).
 * Called on the thread that runs progress. The fragment is the {@code length} bytes of
 * {@code memory} from {@code offset} on — the transport's own buffer, passed without making a
 * slice, so a fragment costs no allocation — and is valid only during the call: the receiver
 * copies what it keeps.
 */
@FunctionalInterface
public interface BtlReceiver {
    /**
     * @param from   the endpoint of the sending peer
     * @param tag    the active-message tag given to {@link BtlModule#send}
     * @param memory the transport's buffer holding the fragment (header followed by payload)
     * @param offset where the fragment starts in {@code memory}
     * @param length the fragment's length in bytes
     */
    void onFragment(BtlEndpoint from, byte tag, MemorySegment memory, long offset, long length);
}
