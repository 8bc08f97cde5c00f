package org.jmca.osc;

import java.lang.foreign.MemorySegment;

/**
 * Applies an accumulate operation to window memory: {@code target = origin op target} element by
 * element, MPI.REPLACE storing the origin, MPI.NO_OP leaving the target as it is. Runs where the
 * window is (its rank's progress), one operation at a time, which makes accumulates atomic with
 * respect to each other.
 */
final class Accumulation {
    /** The op code of MPI.REPLACE. */
    static final int REPLACE = -1;
    /** The op code of MPI.NO_OP. */
    static final int NO_OP = -2;

    private Accumulation() {
    }

    static void apply(WindowEnvironment.Reductions reductions, int op, int type, int element, MemorySegment origin,
                      MemorySegment target) {
        switch (op) {
            case NO_OP -> {
            }
            case REPLACE -> MemorySegment.copy(origin, 0, target, 0, origin.byteSize());
            default -> reductions.of(op, type).apply(origin, target, (int) (origin.byteSize() / element));
        }
    }
}
