package mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.Reduction;
import org.junit.jupiter.api.Test;

/** The tight loops compute what the general element-by-element reduction computes, bit for bit. */
class NumericReductionsTest {
    private static final Datatype[] TYPES = {MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};

    @Property(tries = 200)
    void everyFastLoopAgreesWithTheGeneralReduction(@ForAll @IntRange(min = 0, max = 3) int typeIndex,
                                                   @ForAll Op.Predefined op,
                                                   @ForAll @IntRange(min = 0, max = 70) int count,
                                                   @ForAll long seed) {
        Datatype type = TYPES[typeIndex];
        Reduction fast = NumericReductions.of(op, type.base());
        if (fast == null) {
            return;
        }
        Random random = new Random(seed);
        byte[] in = new byte[count * type.size()];
        byte[] inout = new byte[in.length];
        fill(random, in, type);
        fill(random, inout, type);
        byte[] expected = inout.clone();
        new Op.PredefinedReduction(op, type).apply(MemorySegment.ofArray(in), MemorySegment.ofArray(expected), count);
        fast.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(inout), count);
        assertThat(inout).as("%s on %s, %d elements", op, type, count).isEqualTo(expected);
    }

    /** Random values, with NaN, infinities and signed zeros among the floating-point ones. */
    private static void fill(Random random, byte[] bytes, Datatype type) {
        MemorySegment m = MemorySegment.ofArray(bytes);
        double[] special = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE};
        for (int i = 0; i < bytes.length / type.size(); i++) {
            long at = (long) i * type.size();
            double d = random.nextInt(8) == 0 ? special[random.nextInt(special.length)] : random.nextGaussian() * 1e6;
            switch (type.base()) {
                case INT -> m.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, at, random.nextInt());
                case LONG -> m.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, at, random.nextLong());
                case FLOAT -> m.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) d);
                default -> m.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, at, d);
            }
        }
    }

    @Test
    void pairsBooleansAndLogicalOperationsKeepTheGeneralReduction() throws MPIException {
        assertThat(NumericReductions.of(Op.Predefined.LAND, Datatype.Base.INT)).isNull();
        assertThat(NumericReductions.of(Op.Predefined.SUM, Datatype.Base.SHORT)).isNull();
        assertThat(NumericReductions.of(Op.Predefined.BXOR, Datatype.Base.INT)).isNull();
        assertThat(MPI.MAXLOC.bind(MPI.DOUBLE_INT)).isInstanceOf(Op.PredefinedReduction.class);
        assertThat(MPI.SUM.bind(MPI.DOUBLE)).isNotInstanceOf(Op.PredefinedReduction.class);
    }
}
