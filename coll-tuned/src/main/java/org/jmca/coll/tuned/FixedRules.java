package org.jmca.coll.tuned;

import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollFunction;

/**
 * The built-in decision when neither a forced parameter nor a rules table decides: an
 * algorithm number and its knobs by communicator size and message size.
 *
 * <p>Where the thresholds come from: {@code bench/coll-sweep} forced every algorithm of bcast,
 * allreduce, reduce, allgather and alltoall in turn on 2 and 4 ranks over sm on this project's
 * 2-core machine (output in bench/results/coll-sweep.md, summary in BENCHMARKS.md). The machine is
 * noisy below 8 KiB, so small messages keep the latency-bound choices of Open MPI 4.1's fixed
 * decision (coll_tuned_decision_fixed.c: binomial trees, recursive doubling); from 8 KiB the
 * sweep's winners decide: chain broadcast, Rabenseifner allreduce, chain reduce (in-order binary
 * on 2 ranks), recursive-doubling allgather, linear alltoall. Larger communicators than 4 keep
 * Open MPI's shape, unmeasured here.
 */
final class FixedRules {
    static final long SMALL_BYTES = 8 * 1024;
    static final long LARGE_BYTES = 256 * 1024;

    private FixedRules() {
    }

    /**
     * A fixed decision: Open MPI's algorithm number and its knobs; {@code why} words it for the
     * verbose report (a constant, so deciding allocates no text on every call).
     */
    record Decision(int algorithm, Tuning tuning, Band why) {
    }

    /** The band a decision was made in. */
    enum Band {
        SMALL("small messages"), MEDIUM("medium messages"), LARGE("large messages"), SIZE_ONLY(null),
        NON_COMMUTATIVE(null);

        private final String messages;

        Band(String messages) {
            this.messages = messages;
        }

        /** "large messages, 4 ranks", "small messages, 4 ranks, non-commutative", "4 ranks". */
        String describe(int size, long bytes) {
            return switch (this) {
                case SIZE_ONLY -> size + " ranks";
                case NON_COMMUTATIVE -> of(bytes).describe(size, bytes) + ", non-commutative";
                default -> messages + ", " + size + " ranks";
            };
        }

        static Band of(long bytes) {
            return bytes < SMALL_BYTES ? SMALL : bytes >= LARGE_BYTES ? LARGE : MEDIUM;
        }
    }

    /**
     * @param bytes        the bytes each rank contributes (a block for gathers and scatters)
     * @param commutative  whether the operation of a reduction is commutative (true for the others)
     */
    static Decision decide(CollFunction function, int size, long bytes, boolean commutative, Tuning defaults) {
        boolean two = size == 2;
        boolean powerOfTwo = Integer.bitCount(size) == 1;
        boolean small = bytes < SMALL_BYTES;
        Band band = Band.of(bytes);
        Band reduction = commutative ? band : Band.NON_COMMUTATIVE;
        return switch (function) {
            case BARRIER -> new Decision(two ? 5 : powerOfTwo ? 3 : 4, defaults, Band.SIZE_ONLY);
            case BCAST -> small ? new Decision(6, defaults, band)
                    : two ? new Decision(1, defaults, band)
                    : new Decision(2, defaults, band);
            case REDUCE -> !commutative || two ? new Decision(6, defaults, reduction)
                    : small ? new Decision(5, defaults, band)
                    : new Decision(2, defaults, band);
            case ALLREDUCE -> !commutative || small ? new Decision(3, defaults, reduction)
                    : new Decision(6, defaults, band);
            case ALLTOALL -> small && size >= 8 ? new Decision(3, defaults, band) : new Decision(1, defaults, band);
            case ALLTOALLV -> new Decision(1, defaults, band);
            case ALLGATHER -> powerOfTwo ? new Decision(3, defaults, band)
                    : small ? new Decision(2, defaults, band)
                    : new Decision(4, defaults, band);
            case ALLGATHERV -> two ? new Decision(5, defaults, band)
                    : small ? new Decision(2, defaults, band)
                    : new Decision(3, defaults, band);
            case GATHER -> new Decision(small ? 2 : 1, defaults, band);
            case SCATTER -> new Decision(small ? 2 : 3, defaults, band);
            case REDUCE_SCATTER -> !commutative ? new Decision(1, defaults, reduction)
                    : small ? new Decision(2, defaults, band)
                    : new Decision(3, defaults, band);
            case REDUCE_SCATTER_BLOCK -> !commutative ? new Decision(2, defaults, reduction)
                    : new Decision(small ? 2 : 3, defaults, band);
            case SCAN, EXSCAN -> new Decision(size <= 2 ? 1 : 2, defaults, Band.SIZE_ONLY);
            case GATHERV, SCATTERV -> throw new IllegalArgumentException("coll/tuned leaves " + function.id()
                    + " to coll/basic");
        };
    }
}
