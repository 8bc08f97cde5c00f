package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmca.mca.coll.Reduction;

/**
 * Tight loops for the predefined operations on int, long, float and double: one access layout per
 * type and the operation chosen once per call, not per element. The general
 * {@code PredefinedOpReduction} switches on the type and the operation for every element; that
 * cost 1 MiB allreduces most of their time, and its code, inlined into the collective schedules,
 * made the JIT's largest compilation of a whole job (Schedule.runRound, 0.73 s, JFR).
 */
public final class NumericReductions {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private NumericReductions() {
    }

    /** The loops, made once: a reduction call picks one and makes none. */
    private static final Reduction[][] LOOPS = new Reduction[PredefinedOp.values().length][Type.Base.values().length];

    static {
        for (PredefinedOp op : new PredefinedOp[] {PredefinedOp.SUM, PredefinedOp.PROD, PredefinedOp.MAX,
                PredefinedOp.MIN}) {
            LOOPS[op.ordinal()][Type.Base.INT.ordinal()] = new Ints(op);
            LOOPS[op.ordinal()][Type.Base.LONG.ordinal()] = new Longs(op);
            LOOPS[op.ordinal()][Type.Base.FLOAT.ordinal()] = new Floats(op);
            LOOPS[op.ordinal()][Type.Base.DOUBLE.ordinal()] = new Doubles(op);
        }
    }

    /**
     * The tight loop for {@code op} on {@code base}, or null where only the general one serves:
     * SUM, PROD, MAX and MIN (what hot loops reduce) on the four types; one class per type, as Java
     * has no generics over primitives.
     */
    public static Reduction of(PredefinedOp op, Type.Base base) {
        return base == null ? null : LOOPS[op.ordinal()][base.ordinal()];
    }

    /** SUM, PROD, MAX and MIN: commutative, so the schedules may combine operands in any order. */
    private sealed interface Arithmetic extends Reduction permits Ints, Longs, Floats, Doubles {
        @Override
        default boolean commutative() {
            return true;
        }
    }

    private record Ints(PredefinedOp op) implements Arithmetic {
        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            if (count == 1) {
                int a = in.get(INT, 0);
                int b = inout.get(INT, 0);
                inout.set(INT, 0, switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MAX -> Math.max(a, b);
                    default -> Math.min(a, b);
                });
                return;
            }
            switch (op) {
                case SUM -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(INT, i, in.getAtIndex(INT, i) + inout.getAtIndex(INT, i));
                    }
                }
                case PROD -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(INT, i, in.getAtIndex(INT, i) * inout.getAtIndex(INT, i));
                    }
                }
                case MAX -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(INT, i, Math.max(in.getAtIndex(INT, i), inout.getAtIndex(INT, i)));
                    }
                }
                default -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(INT, i, Math.min(in.getAtIndex(INT, i), inout.getAtIndex(INT, i)));
                    }
                }
            }
        }
    }

    private record Longs(PredefinedOp op) implements Arithmetic {
        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            if (count == 1) {
                long a = in.get(LONG, 0);
                long b = inout.get(LONG, 0);
                inout.set(LONG, 0, switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MAX -> Math.max(a, b);
                    default -> Math.min(a, b);
                });
                return;
            }
            switch (op) {
                case SUM -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(LONG, i, in.getAtIndex(LONG, i) + inout.getAtIndex(LONG, i));
                    }
                }
                case PROD -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(LONG, i, in.getAtIndex(LONG, i) * inout.getAtIndex(LONG, i));
                    }
                }
                case MAX -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(LONG, i, Math.max(in.getAtIndex(LONG, i), inout.getAtIndex(LONG, i)));
                    }
                }
                default -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(LONG, i, Math.min(in.getAtIndex(LONG, i), inout.getAtIndex(LONG, i)));
                    }
                }
            }
        }
    }

    private record Floats(PredefinedOp op) implements Arithmetic {
        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            if (count == 1) {
                float a = in.get(FLOAT, 0);
                float b = inout.get(FLOAT, 0);
                inout.set(FLOAT, 0, switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MAX -> Math.max(a, b);
                    default -> Math.min(a, b);
                });
                return;
            }
            switch (op) {
                case SUM -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(FLOAT, i, in.getAtIndex(FLOAT, i) + inout.getAtIndex(FLOAT, i));
                    }
                }
                case PROD -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(FLOAT, i, in.getAtIndex(FLOAT, i) * inout.getAtIndex(FLOAT, i));
                    }
                }
                case MAX -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(FLOAT, i, Math.max(in.getAtIndex(FLOAT, i), inout.getAtIndex(FLOAT, i)));
                    }
                }
                default -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(FLOAT, i, Math.min(in.getAtIndex(FLOAT, i), inout.getAtIndex(FLOAT, i)));
                    }
                }
            }
        }
    }

    private record Doubles(PredefinedOp op) implements Arithmetic {
        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            if (count == 1) {
                double a = in.get(DOUBLE, 0);
                double b = inout.get(DOUBLE, 0);
                inout.set(DOUBLE, 0, switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MAX -> Math.max(a, b);
                    default -> Math.min(a, b);
                });
                return;
            }
            switch (op) {
                case SUM -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(DOUBLE, i, in.getAtIndex(DOUBLE, i) + inout.getAtIndex(DOUBLE, i));
                    }
                }
                case PROD -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(DOUBLE, i, in.getAtIndex(DOUBLE, i) * inout.getAtIndex(DOUBLE, i));
                    }
                }
                case MAX -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(DOUBLE, i, Math.max(in.getAtIndex(DOUBLE, i), inout.getAtIndex(DOUBLE, i)));
                    }
                }
                default -> {
                    for (long i = 0; i < count; i++) {
                        inout.setAtIndex(DOUBLE, i, Math.min(in.getAtIndex(DOUBLE, i), inout.getAtIndex(DOUBLE, i)));
                    }
                }
            }
        }
    }
}
