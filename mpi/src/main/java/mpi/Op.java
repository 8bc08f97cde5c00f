package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.Reduction;

/**
 * A reduction operation: one of the predefined ones in {@link MPI} (MAX, SUM, MINLOC...) or a
 * user's {@link UserFunction}. Applied to a datatype it becomes the {@link Reduction} the coll
 * modules run; a predefined operation that is not defined for the type is an MPI_ERR_OP.
 */
public final class Op implements Freeable {

    /** The predefined operations. */
    enum Predefined { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP }

    private final Predefined predefined;
    private final UserFunction function;
    private final boolean commutative;
    private boolean freed;

    Op(Predefined predefined) {
        this.predefined = predefined;
        this.function = null;
        this.commutative = true;
    }

    /** A user-defined operation; {@code commute} says whether operand order may change. */
    public Op(UserFunction function, boolean commute) {
        this.predefined = null;
        this.function = function;
        this.commutative = commute;
    }

    public boolean isCommutative() {
        return commutative;
    }

    public void free() throws MPIException {
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    @Override
    public String toString() {
        return predefined != null ? "MPI." + predefined : "a user-defined op";
    }

    /** This operation on elements of {@code type}. */
    Reduction bind(Datatype type) throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, "the operation has been freed");
        }
        if (function != null) {
            return new UserReduction(function, type, commutative, UserReduction.overridesArrayForm(function));
        }
        if (predefined == Predefined.REPLACE || predefined == Predefined.NO_OP) {
            throw new MPIException(MPI.ERR_OP, this + " is for one-sided accumulates only, not for reductions");
        }
        if (type.isPair() != (predefined == Predefined.MINLOC || predefined == Predefined.MAXLOC)) {
            throw undefined(type, type.isPair() ? "pair types only take MPI.MINLOC and MPI.MAXLOC"
                    : "MINLOC and MAXLOC need a pair type such as MPI.INT2 or MPI.DOUBLE_INT");
        }
        boolean floating = type.base() == Datatype.Base.FLOAT || type.base() == Datatype.Base.DOUBLE;
        boolean bitwise = predefined == Predefined.BAND || predefined == Predefined.BOR || predefined == Predefined.BXOR;
        boolean logical = predefined == Predefined.LAND || predefined == Predefined.LOR || predefined == Predefined.LXOR;
        if (floating && (bitwise || logical)) {
            throw undefined(type, "it is defined for integer and boolean types");
        }
        if (type.base() == Datatype.Base.BOOLEAN && !(bitwise || logical)) {
            throw undefined(type, "booleans take the logical and bitwise operations only");
        }
        Reduction fast = type.isPair() ? null : NumericReductions.of(predefined, type.base());
        return fast != null ? fast : new PredefinedReduction(predefined, type);
    }

    /**
     * This op's code for a one-sided accumulate on elements of {@code type}: predefined ops only
     * (MPI.REPLACE and MPI.NO_OP included), each defined for the type.
     */
    int oneSidedCode(Datatype type) throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, "the operation has been freed");
        }
        if (predefined == null) {
            throw new MPIException(MPI.ERR_OP, "one-sided accumulates take predefined operations only, not " + this);
        }
        return switch (predefined) {
            case REPLACE -> org.jmca.osc.OscWindow.REPLACE;
            case NO_OP -> org.jmca.osc.OscWindow.NO_OP;
            default -> {
                bind(type); // MPI_ERR_OP if the op is not defined for the type
                yield predefined.ordinal();
            }
        };
    }

    /** The reduction of predefined op number {@code code} on {@code type}: a target's side of an accumulate. */
    static Reduction ofCode(int code, Datatype type) {
        try {
            return new Op(Predefined.values()[code]).bind(type);
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private MPIException undefined(Datatype type, String why) {
        return new MPIException(MPI.ERR_OP, this + " is not defined for " + type + ": " + why);
    }

    /** A predefined operation, reading integers as long and floating-point values as double. */
    record PredefinedReduction(Predefined op, Datatype type) implements Reduction {

        @Override
        public boolean commutative() {
            return true;
        }

        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            int size = type.size();
            boolean floating = type.base() == Datatype.Base.FLOAT || type.base() == Datatype.Base.DOUBLE;
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
            boolean takeIn = op == Predefined.MINLOC ? order < 0 : order > 0;
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
            return type.base() == Datatype.Base.FLOAT ? m.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at)
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

    /**
     * A user's function: called with arrays of the datatype's array type when it overrides the
     * array form, else with native-order ByteBuffers. Arrays are copies, written back after the call.
     */
    private record UserReduction(UserFunction function, Datatype type, boolean commutative, boolean arrayForm)
            implements Reduction {

        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            try {
                if (arrayForm && type.arrayType() != null && type != MPI.BOOLEAN) {
                    Object inArray = toArray(in, count);
                    Object inoutArray = toArray(inout, count);
                    function.call(inArray, inoutArray, count, type);
                    MemorySegment result = UserBuffer.newSegment(inoutArray);
                    MemorySegment.copy(result, 0, inout, 0, result.byteSize());
                } else {
                    ByteBuffer a = in.asByteBuffer().order(ByteOrder.nativeOrder());
                    ByteBuffer b = inout.asByteBuffer().order(ByteOrder.nativeOrder());
                    function.call(a, b, count, type);
                }
            } catch (MPIException e) {
                throw new McaException("the user-defined operation failed: " + e.getMessage(), e);
            }
        }

        /** Whether the user's function overrides the array form; asked once, when the op is bound. */
        static boolean overridesArrayForm(UserFunction function) {
            try {
                return function.getClass().getMethod("call", Object.class, Object.class, int.class, Datatype.class)
                        .getDeclaringClass() != UserFunction.class;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }

        private Object toArray(MemorySegment m, int count) {
            Object array = Array.newInstance(type.arrayType().componentType(), count * type.arrayElements());
            MemorySegment.copy(m, 0, UserBuffer.newSegment(array), 0, (long) count * type.size());
            return array;
        }
    }
}
