package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmca.mca.coll.Reduction;

/** Element types and operations for the algorithm tests, with values that make exact sums. */
enum TestOps {
    INT_SUM(4, true), LONG_SUM(8, true), DOUBLE_SUM(8, true), BYTE_SUM(1, true),
    /** 2x2 int matrices multiplied: associative, not commutative, so any reordering shows. */
    MATRIX_PRODUCT(16, false);

    final int elementSize;
    final boolean commutative;

    TestOps(int elementSize, boolean commutative) {
        this.elementSize = elementSize;
        this.commutative = commutative;
    }

    /** Writes element {@code i} of rank {@code rank}'s data (with a {@code salt} for distinct buffers). */
    void fill(MemorySegment buffer, int count, int rank, int salt) {
        for (int i = 0; i < count; i++) {
            int v = (rank * 7 + i * 3 + salt * 11) % 13 - 4;
            long at = (long) i * elementSize;
            switch (this) {
                case INT_SUM -> buffer.set(ValueLayout.JAVA_INT_UNALIGNED, at, v * 1000 + rank);
                case LONG_SUM -> buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, at, v * 1_000_000_007L + rank);
                case DOUBLE_SUM -> buffer.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, v * 0.5 + rank);
                case BYTE_SUM -> buffer.set(ValueLayout.JAVA_BYTE, at, (byte) (v * 5 + rank));
                case MATRIX_PRODUCT -> {
                    buffer.set(ValueLayout.JAVA_INT_UNALIGNED, at, v);
                    buffer.set(ValueLayout.JAVA_INT_UNALIGNED, at + 4, rank + 1);
                    buffer.set(ValueLayout.JAVA_INT_UNALIGNED, at + 8, i - rank);
                    buffer.set(ValueLayout.JAVA_INT_UNALIGNED, at + 12, 1);
                }
            }
        }
    }

    Reduction reduction() {
        return new Reduction() {
            @Override
            public boolean commutative() {
                return commutative;
            }

            @Override
            public void apply(MemorySegment in, MemorySegment inout, int count) {
                for (int i = 0; i < count; i++) {
                    long at = (long) i * elementSize;
                    switch (TestOps.this) {
                        case INT_SUM -> inout.set(ValueLayout.JAVA_INT_UNALIGNED, at,
                                in.get(ValueLayout.JAVA_INT_UNALIGNED, at) + inout.get(ValueLayout.JAVA_INT_UNALIGNED, at));
                        case LONG_SUM -> inout.set(ValueLayout.JAVA_LONG_UNALIGNED, at,
                                in.get(ValueLayout.JAVA_LONG_UNALIGNED, at) + inout.get(ValueLayout.JAVA_LONG_UNALIGNED, at));
                        case DOUBLE_SUM -> inout.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at,
                                in.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at)
                                        + inout.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at));
                        case BYTE_SUM -> inout.set(ValueLayout.JAVA_BYTE, at,
                                (byte) (in.get(ValueLayout.JAVA_BYTE, at) + inout.get(ValueLayout.JAVA_BYTE, at)));
                        case MATRIX_PRODUCT -> {
                            int a = in.get(ValueLayout.JAVA_INT_UNALIGNED, at);
                            int b = in.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4);
                            int c = in.get(ValueLayout.JAVA_INT_UNALIGNED, at + 8);
                            int d = in.get(ValueLayout.JAVA_INT_UNALIGNED, at + 12);
                            int e = inout.get(ValueLayout.JAVA_INT_UNALIGNED, at);
                            int f = inout.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4);
                            int g = inout.get(ValueLayout.JAVA_INT_UNALIGNED, at + 8);
                            int h = inout.get(ValueLayout.JAVA_INT_UNALIGNED, at + 12);
                            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at, a * e + b * g);
                            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at + 4, a * f + b * h);
                            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at + 8, c * e + d * g);
                            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at + 12, c * f + d * h);
                        }
                    }
                }
            }
        };
    }
}
