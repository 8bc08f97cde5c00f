package org.jmca.mca.coll;

import java.lang.foreign.MemorySegment;

/** A reduction operation bound to an element type, as MPI_Op is applied to a datatype. */
public interface Reduction {

    /** Whether the order of operands does not matter; algorithms that reorder need it. */
    boolean commutative();

    /**
     * Whether the operation combines each primitive value on its own, as the predefined ones do,
     * so that a derived datatype may be reduced as its primitives; a user's function must see
     * whole elements of its datatype instead.
     */
    default boolean elementwise() {
        return true;
    }

    /**
     * Combines {@code count} elements: {@code inout[i] = in[i] op inout[i]}. As in MPI, {@code in}
     * holds the operands of lower ranks, so a non-commutative op sees ranks in ascending order.
     */
    void apply(MemorySegment in, MemorySegment inout, int count);
}
