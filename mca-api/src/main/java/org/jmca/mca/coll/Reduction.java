package org.jmca.mca.coll;

import java.lang.foreign.MemorySegment;

/** A reduction operation bound to an element type, as MPI_Op is applied to a datatype. */
public interface Reduction {

    /** Whether the order of operands does not matter; algorithms that reorder need it. */
    boolean commutative();

    /**
     * Combines {@code count} elements: {@code inout[i] = in[i] op inout[i]}. As in MPI, {@code in}
     * holds the operands of lower ranks, so a non-commutative op sees ranks in ascending order.
     */
    void apply(MemorySegment in, MemorySegment inout, int count);
}
