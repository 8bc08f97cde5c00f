package org.jmca.mca.pml;

/**
 * What a completed receive (or a probe) found.
 *
 * @param source    the sender's rank in the job
 * @param tag       the message's tag
 * @param byteCount bytes delivered (for a probe, bytes in the message)
 * @param cancelled the request was cancelled before it matched
 * @param truncated the message was longer than the receive buffer; only what fit was delivered
 */
public record PmlStatus(int source, int tag, long byteCount, boolean cancelled, boolean truncated) {

    /** The status of a completed send, or a request that carries no message. */
    public static final PmlStatus EMPTY = new PmlStatus(PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, 0, false, false);

    public static PmlStatus ofCancelled() {
        return new PmlStatus(PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, 0, true, false);
    }
}
