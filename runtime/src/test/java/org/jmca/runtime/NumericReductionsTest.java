package org.jmca.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.Reduction;
import org.junit.jupiter.api.Test;

/** The tight loops compute what the general element-by-element reduction computes, bit for bit. */
class NumericReductionsTest {
    private static final Type[] TYPES = {
        Type.primitive("MPI.INT", 4, Type.Base.INT, int[].class, null),
        Type.primitive("MPI.LONG", 8, Type.Base.LONG, long[].class, null),
        Type.primitive("MPI.FLOAT", 4, Type.Base.FLOAT, float[].class, null),
        Type.primitive("MPI.DOUBLE", 8, Type.Base.DOUBLE, double[].class, null)};

    @Property(tries = 200)
    void everyFastLoopAgreesWithTheGeneralReduction(@ForAll @IntRange(min = 0, max = 3) int typeIndex,
                                                   @ForAll PredefinedOp op,
                                                   @ForAll @IntRange(min = 0, max = 70) int count,
                                                   @ForAll long seed) {
        Type type = TYPES[typeIndex];
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
        new PredefinedReduction(op, type).apply(MemorySegment.ofArray(in), MemorySegment.ofArray(expected), count);
        fast.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(inout), count);
        assertThat(inout).as("%s on %s, %d elements", op, type, count).isEqualTo(expected);
    }

    /** Random values, with NaN, infinities and signed zeros among the floating-point ones. */
    private static void fill(Random random, byte[] bytes, Type type) {
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
    void pairsBooleansAndLogicalOperationsKeepTheGeneralReduction() {
        assertThat(NumericReductions.of(PredefinedOp.LAND, Type.Base.INT)).isNull();
        assertThat(NumericReductions.of(PredefinedOp.SUM, Type.Base.SHORT)).isNull();
        assertThat(NumericReductions.of(PredefinedOp.BXOR, Type.Base.INT)).isNull();
        Type doubleInt = Type.pair("MPI.DOUBLE_INT", 16, Type.Base.DOUBLE, 8, null, null);
        assertThat(Reductions.predefined(PredefinedOp.MAXLOC, doubleInt)).isInstanceOf(PredefinedReduction.class);
        assertThat(Reductions.predefined(PredefinedOp.SUM, TYPES[3])).isNotInstanceOf(PredefinedReduction.class)
                .isSameAs(Reductions.predefined(PredefinedOp.SUM, TYPES[3]));
    }

    @Test
    void anOperationMpiDoesNotDefineForTheTypeIsAnErrOp() {
        assertThatThrownBy(() -> Reductions.predefined(PredefinedOp.BAND, TYPES[3]))
                .isInstanceOf(MpiError.class).hasMessage("MPI.BAND is not defined for MPI.DOUBLE: it is defined for"
                        + " integer and boolean types")
                .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.OP);
    }
}
