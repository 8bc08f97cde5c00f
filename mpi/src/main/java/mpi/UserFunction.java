package mpi;

import java.nio.ByteBuffer;

/**
 * The body of a user-defined reduction ({@link Op#Op(UserFunction, boolean)}), as in Open MPI's
 * Java bindings: it combines {@code inOutVec[i] = inVec[i] op inOutVec[i]}, where {@code inVec}
 * holds the operands of lower ranks. Override the array form (called with Java arrays of the
 * datatype's array type) or the buffer form (called with native-order ByteBuffers).
 */
public abstract class UserFunction {

    /** Combines {@code count} elements held in arrays ({@code int[]} for MPI.INT, two ints per MPI.INT2). */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("this UserFunction overrides neither call(Object, Object, int, Datatype)"
                + " nor call(ByteBuffer, ByteBuffer, int, Datatype)");
    }

    /** Combines {@code count} elements held in buffers of {@code count * datatype.getSize()} bytes. */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("this UserFunction overrides neither call(Object, Object, int, Datatype)"
                + " nor call(ByteBuffer, ByteBuffer, int, Datatype)");
    }
}
