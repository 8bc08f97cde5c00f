package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmca.mca.coll.Reduction;

/** A predefined operation, reading integers as long and floating-point values as double. */
public record PredefinedReduction(PredefinedOp op, Type type) implements Reduction {

    @Override
    public boolean commutative() {
        return true;
    }

    @Override
    public void apply(MemorySegment in, MemorySegment inout, int count) {
        int size = type.size();
        boolean floating = type.base() == Type.Base.FLOAT || type.base() == Type.Base.DOUBLE;
        for (int i = 0; i < count; i++) {
            long at = (long) i * size;
            if (type.isPair()) {
                applyLoc(in, inout, at, floating);
            } else if (floating) {
                write(inout, at, Double.doubleToRawLongBits(combine(readDouble(in, at), readDouble(inout, at))));
            } else {
                write(inout, at, combine(read(in, at), read(inout, at)));
            }
        }
    }

    private void applyLoc(MemorySegment in, MemorySegment inout, long at, boolean floating) {
        int inIndex = in.get(ValueLayout.JAVA_INT_UNALIGNED, at + type.indexOffset());
        int ioIndex = inout.get(ValueLayout.JAVA_INT_UNALIGNED, at + type.indexOffset());
        int order = floating ? Double.compare(readDouble(in, at), readDouble(inout, at))
                : Long.compare(read(in, at), read(inout, at));
        boolean takeIn = op == PredefinedOp.MINLOC ? order < 0 : order > 0;
        if (order == 0) {
            inout.set(ValueLayout.JAVA_INT_UNALIGNED, at + type.indexOffset(), Math.min(inIndex, ioIndex));
        } else if (takeIn) {
            MemorySegment.copy(in, at, inout, at, type.size());
        }
    }

    private long combine(long a, long b) {
        return switch (op) {
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            case LAND -> (a != 0 && b != 0) ? 1 : 0;
            case LOR -> (a != 0 || b != 0) ? 1 : 0;
            case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
            case MINLOC, MAXLOC, REPLACE, NO_OP -> throw new IllegalStateException();
        };
    }

    private double combine(double a, double b) {
        return switch (op) {
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            default -> throw new IllegalStateException(op + " on floating point");
        };
    }

    private long read(MemorySegment m, long at) {
        return switch (type.base()) {
            case BYTE, BOOLEAN -> m.get(ValueLayout.JAVA_BYTE, at);
            case CHAR -> m.get(ValueLayout.JAVA_CHAR_UNALIGNED, at);
            case SHORT -> m.get(ValueLayout.JAVA_SHORT_UNALIGNED, at);
            case INT -> m.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            case LONG -> m.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
            case FLOAT, DOUBLE -> throw new IllegalStateException();
        };
    }

    private double readDouble(MemorySegment m, long at) {
        return type.base() == Type.Base.FLOAT ? m.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at)
                : m.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
    }

    /** Stores a result: integers narrowed to the type, doubles given as raw bits. */
    private void write(MemorySegment m, long at, long value) {
        switch (type.base()) {
            case BYTE, BOOLEAN -> m.set(ValueLayout.JAVA_BYTE, at, (byte) value);
            case CHAR -> m.set(ValueLayout.JAVA_CHAR_UNALIGNED, at, (char) value);
            case SHORT -> m.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short) value);
            case INT -> m.set(ValueLayout.JAVA_INT_UNALIGNED, at, (int) value);
            case LONG -> m.set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
            case FLOAT -> m.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) Double.longBitsToDouble(value));
            case DOUBLE -> m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, Double.longBitsToDouble(value));
        }
    }
}
