package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.Reduction;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.PredefinedOp;
import org.jmca.runtime.Reductions;
import org.jmca.runtime.UserBuffer;

/**
 * A reduction operation: one of the predefined ones in {@link MPI} (MAX, SUM, MINLOC...) or a
 * user's {@link UserFunction}. Applied to a datatype it becomes the {@link Reduction} the coll
 * modules run; a predefined operation that is not defined for the type is an MPI_ERR_OP.
 */
public final class Op implements Freeable {

    private final PredefinedOp predefined;
    private final UserFunction function;
    private final boolean commutative;
    private boolean freed;

    Op(PredefinedOp predefined) {
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

    /** {@code op} on elements of {@code type}: MPI_ERR_OP or MPI_ERR_TYPE for a null one. */
    static Reduction bound(Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "the operation is null");
        }
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
        }
        return op.bind(type);
    }

    /**
     * {@code op} as a reduction (reduce, allreduce, scan) of {@code type}: bound to the primitive
     * a derived type is made of, whose operands are its primitives packed one after another.
     */
    static Reduction reduction(Op op, Datatype type) throws MPIException {
        if (type != null && type.isComplex() && op != MPI.SUM) {
            throw new MPIException(MPI.ERR_OP, "JMCA reduces complex types with MPI.SUM only, not " + op);
        }
        return bound(op, type != null && type.isDerived() ? type.primitive() : type);
    }

    /** This operation on elements of {@code type}. */
    Reduction bind(Datatype type) throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, "the operation has been freed");
        }
        if (function != null) {
            return new UserReduction(function, type, commutative, UserReduction.overridesArrayForm(function));
        }
        try {
            return Reductions.predefined(predefined, Datatype.use(type));
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
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
            return new Op(PredefinedOp.values()[code]).bind(type);
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * A user's function: called with arrays of the datatype's array type when it overrides the
     * array form, else with native-order ByteBuffers. Arrays are copies, written back after the call.
     */
    private record UserReduction(UserFunction function, Datatype type, boolean commutative, boolean arrayForm)
            implements Reduction {

        @Override
        public boolean elementwise() {
            return false;
        }

        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            try {
                if (arrayForm && type.arrayType() != null && type != MPI.BOOLEAN) {
                    Object inArray = toArray(in, count);
                    Object inoutArray = toArray(inout, count);
                    function.call(inArray, inoutArray, count, type);
                    MemorySegment result = org.jmca.runtime.UserBuffer.newSegment(inoutArray);
                    MemorySegment.copy(result, 0, inout, 0, result.byteSize());
                } else {
                    MemorySegment from = viewable(in);
                    MemorySegment into = viewable(inout);
                    function.call(from.asByteBuffer().order(ByteOrder.nativeOrder()),
                            into.asByteBuffer().order(ByteOrder.nativeOrder()), count, type);
                    if (into != inout) {
                        MemorySegment.copy(into, 0, inout, 0, inout.byteSize());
                    }
                }
            } catch (MPIException e) {
                throw new McaException("the user-defined operation failed: " + e.getMessage(), e);
            }
        }

        /**
         * {@code m}, or a copy of it that a ByteBuffer can view: only native memory and byte arrays
         * can be (a collective may hand over the program's int[] itself).
         */
        private static MemorySegment viewable(MemorySegment m) {
            if (m.isNative() || m.heapBase().orElse(null) instanceof byte[]) {
                return m;
            }
            MemorySegment copy = MemorySegment.ofArray(new byte[(int) m.byteSize()]);
            MemorySegment.copy(m, 0, copy, 0, m.byteSize());
            return copy;
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
            MemorySegment.copy(m, 0, org.jmca.runtime.UserBuffer.newSegment(array), 0, (long) count * type.size());
            return array;
        }
    }
}
