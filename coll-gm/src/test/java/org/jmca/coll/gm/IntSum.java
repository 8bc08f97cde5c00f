package org.jmca.coll.gm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmca.mca.coll.Reduction;

/** The sum of ints, for coll/gm's tests' reduces and allreduces. */
final class IntSum implements Reduction {
    static final Reduction SUM = new IntSum();

    private IntSum() {
    }

    @Override
    public boolean commutative() {
        return true;
    }

    @Override
    public void apply(MemorySegment in, MemorySegment inout, int count) {
        for (int i = 0; i < count; i++) {
            long at = 4L * i;
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at, in.get(ValueLayout.JAVA_INT_UNALIGNED, at)
                    + inout.get(ValueLayout.JAVA_INT_UNALIGNED, at));
        }
    }
}
