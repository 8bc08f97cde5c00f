package org.jmca.coll.mcast;

/**
 * coll/mcast's parameters, read once per process.
 *
 * @param coroots          co-roots per broadcast in the co-root scheme
 * @param window           messages a root (or co-root) may have unacknowledged; a receiver holds
 *                         early messages up to twice this far beyond what it delivered
 * @param ackEvery         a receiver acknowledges every M-th message (skewed by rank)
 * @param credits          credit-based flow control: messages a receiver holds beyond what it delivered and
 *                         grants in its acknowledgements (0: off, it holds up to twice the window)
 * @param maxBytes         larger messages go to the communicator's point-to-point broadcast
 * @param fragmentBytes    payload bytes of one datagram
 * @param retransmitNanos  first retransmission timeout (doubles per retransmission of a message)
 * @param nackDelayNanos   a receiver's wait before asking for what it misses, plus a random part as long
 * @param smpAware         one leader per host receives the multicast and passes it on over shared memory
 * @param attachWaitNanos  a rank that waits longer than this for its late leader joins the group itself
 * @param detachAfter      an attached rank leaves the group after this many calls its leader served first
 * @param alltoallMaxBlock larger alltoall blocks go to the module below; smaller ones through the leaders
 */
record McastSettings(Reliability reliability, int coroots, int window, int ackEvery, int credits, long maxBytes, int fragmentBytes,
                     long retransmitNanos, long nackDelayNanos, boolean smpAware, long attachWaitNanos, int detachAfter,
                     long alltoallMaxBlock, FaultInjection.Rates faults) {

    /** How often a receiver acknowledges: every M-th message, or in the NACK scheme every half window. */
    int ackInterval() {
        return reliability == Reliability.NACK ? Math.max(1, window / 2) : ackEvery;
    }

    /** How far beyond what it delivered a receiver holds early messages: its credits, or twice the window. */
    int earlyCapacity() {
        return credits > 0 ? credits : 2 * window;
    }

    /** Co-roots of a broadcast with {@code receivers} multicast receivers. */
    int corootsFor(int receivers) {
        return reliability == Reliability.COROOT ? Math.min(coroots, receivers) : 0;
    }
}
