package org.jmca.coll.mcast;

/** How coll/mcast makes the multicast reliable ({@code coll_mcast_reliability}). */
enum Reliability {
    /** Receivers acknowledge every M-th message to the root, skewed by rank; the root retransmits on timeout. */
    ACK,
    /**
     * The root sends point-to-point to a few co-roots and multicasts to all; the root and each
     * co-root collect the acknowledgements of a fixed subset and retransmit to it.
     */
    COROOT,
    /**
     * Receivers ask for what they miss, after a random delay, and stay silent when another
     * receiver already asked; sparse cumulative acknowledgements free the root's buffers.
     */
    NACK
}
