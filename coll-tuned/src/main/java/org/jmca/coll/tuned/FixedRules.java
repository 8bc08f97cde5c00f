package org.jmca.coll.tuned;

import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollFunction;

/**
 * The built-in decision when neither a forced parameter nor a rules table decides: an
 * algorithm number and its knobs by communicator size and message size.
 *
 * <p>Where the thresholds come from: the shape follows Open MPI 4.1's fixed decision functions
 * (coll_tuned_decision_fixed.c: latency-bound trees and recursive doubling for small messages,
 * bandwidth-bound rings, scatter-allgather and pipelines for large ones, two-proc algorithms for
 * two ranks), whose crossovers Open MPI measured on its clusters. The crossovers here were then
 * checked on this project's 2-core machine with bench/ (2 and 4 ranks over sm and tcp, see
 * BENCHMARKS.md); larger communicators keep Open MPI's bands.
 */
final class FixedRules {
    static final long SMALL = 8 * 1024;
    static final long LARGE = 256 * 1024;

    private FixedRules() {
    }

    /** A fixed decision: Open MPI's algorithm number and its knobs. */
    record Decision(int algorithm, Tuning tuning, String band) {
    }

    /**
     * @param bytes        the bytes each rank contributes (a block for gathers and scatters)
     * @param commutative  whether the operation of a reduction is commutative (true for the others)
     */
    static Decision decide(CollFunction function, int size, long bytes, boolean commutative, Tuning defaults) {
        boolean two = size == 2;
        boolean powerOfTwo = Integer.bitCount(size) == 1;
        boolean small = bytes < SMALL;
        boolean large = bytes >= LARGE;
        String band = (small ? "small" : large ? "large" : "medium") + " messages, " + size + " ranks";
        Tuning segmented = defaults.withSegmentSize(64 * 1024);
        return switch (function) {
            case BARRIER -> new Decision(two ? 5 : powerOfTwo ? 3 : 4, defaults, size + " ranks");
            case BCAST -> small ? new Decision(6, defaults, band)
                    : !large || size <= 3 ? new Decision(two ? 1 : 6, two ? defaults : segmented, band)
                    : new Decision(9, defaults, band);
            case REDUCE -> !commutative ? new Decision(6, defaults, band + ", non-commutative")
                    : small ? new Decision(5, defaults, band)
                    : large && size > 2 ? new Decision(7, defaults, band)
                    : new Decision(3, segmented, band);
            case ALLREDUCE -> !commutative || small ? new Decision(3, defaults, band + (commutative ? "" : ", non-commutative"))
                    : powerOfTwo ? new Decision(6, defaults, band)
                    : new Decision(4, defaults, band);
            case ALLTOALL -> two ? new Decision(5, defaults, band)
                    : small && size >= 8 ? new Decision(3, defaults, band)
                    : large ? new Decision(2, defaults, band)
                    : new Decision(1, defaults, band);
            case ALLTOALLV -> new Decision(two || !large ? 1 : 2, defaults, band);
            case ALLGATHER -> two ? new Decision(6, defaults, band)
                    : small ? new Decision(powerOfTwo ? 3 : 2, defaults, band)
                    : size % 2 == 0 ? new Decision(5, defaults, band)
                    : new Decision(4, defaults, band);
            case ALLGATHERV -> two ? new Decision(5, defaults, band)
                    : small ? new Decision(2, defaults, band)
                    : new Decision(3, defaults, band);
            case GATHER -> new Decision(small ? 2 : 1, defaults, band);
            case SCATTER -> new Decision(small ? 2 : 3, defaults, band);
            case REDUCE_SCATTER -> !commutative ? new Decision(1, defaults, band + ", non-commutative")
                    : small ? new Decision(2, defaults, band)
                    : new Decision(3, defaults, band);
            case REDUCE_SCATTER_BLOCK -> !commutative ? new Decision(2, defaults, band + ", non-commutative")
                    : new Decision(small ? 2 : 3, defaults, band);
            case SCAN, EXSCAN -> new Decision(size <= 2 ? 1 : 2, defaults, size + " ranks");
            case GATHERV, SCATTERV -> throw new IllegalArgumentException("coll/tuned leaves " + function.id()
                    + " to coll/basic");
        };
    }
}
