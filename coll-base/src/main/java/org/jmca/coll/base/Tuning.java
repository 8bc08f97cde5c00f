package org.jmca.coll.base;

/**
 * The knobs of the segmented and tree algorithms.
 *
 * @param segmentSize bytes per pipelined segment; 0 sends the message whole
 * @param treeFanout  fan-out of k-ary and k-nomial trees
 * @param chainFanout number of chains from the root in chain algorithms
 * @param maxRequests exchanges in flight in the synchronised linear algorithms; 0 for no limit
 */
public record Tuning(long segmentSize, int treeFanout, int chainFanout, int maxRequests) {

    /** Whole messages, fan-outs of 4 (Open MPI's defaults), no request limit. */
    public static final Tuning DEFAULT = new Tuning(0, 4, 4, 0);

    public Tuning withSegmentSize(long bytes) {
        return new Tuning(bytes, treeFanout, chainFanout, maxRequests);
    }
}
