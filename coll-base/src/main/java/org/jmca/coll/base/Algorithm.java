package org.jmca.coll.base;

import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;

/**
 * One algorithm of one collective, under Open MPI's number and name.
 *
 * @param function           the collective
 * @param number             Open MPI's algorithm number (coll_tuned_&lt;coll&gt;_algorithm)
 * @param name               Open MPI's name for it
 * @param needsCommutative   whether it combines operands out of rank order
 * @param onlyTwoRanks       whether it works for communicators of exactly two ranks only
 * @param steps              what it adds to a schedule
 */
public record Algorithm(CollFunction function, int number, String name, boolean needsCommutative,
                        boolean onlyTwoRanks, Steps steps) {

    /** The algorithm's body: adds its rounds to the schedule. */
    @FunctionalInterface
    public interface Steps {
        void add(Schedule schedule, CollCall call, Tuning tuning);
    }

    /** Why it cannot serve this call, or null if it can. */
    public String unsuitableFor(int communicatorSize, CollCall call) {
        if (onlyTwoRanks && communicatorSize != 2) {
            return name + " needs exactly 2 ranks, the communicator has " + communicatorSize;
        }
        if (needsCommutative && call.op() != null && !call.op().commutative()) {
            return name + " needs a commutative operation";
        }
        return null;
    }

    /** {@code 4 (ring)}. */
    @Override
    public String toString() {
        return number + " (" + name + ")";
    }
}
