package org.jmca.coll.tuned.rules;

/**
 * One message-size rule: for messages of msgSizeMin..msgSizeMax bytes (both inclusive), use
 * {@code algorithm} with the given parameters. Algorithm 0 means "let the fixed rules decide",
 * as in Open MPI, where a rule naming 0 falls through to the forced or fixed decision.
 *
 * @param msgSizeMin  the smallest message size, in bytes
 * @param msgSizeMax  the largest message size, in bytes; Long.MAX_VALUE for no bound
 * @param algorithm   the collective's algorithm number
 * @param faninout    the fan-in/out or topology parameter; 0 when not given
 * @param segmentSize the segment size in bytes; 0 for no segmentation
 * @param maxRequests the number of outstanding requests; 0 when not given, which leaves it to
 *                    the coll_tuned_alltoall_max_requests parameter as Open MPI does
 * @param origin      "file:line" where the rule is written
 */
public record Rule(long msgSizeMin, long msgSizeMax, int algorithm, int faninout, int segmentSize,
                   int maxRequests, String origin) {

    /** The bound that stands for "no upper bound". */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    /** Whether a message of {@code messageSize} bytes falls in this rule's range. */
    public boolean covers(long messageSize) {
        return msgSizeMin <= messageSize && messageSize <= msgSizeMax;
    }
}
