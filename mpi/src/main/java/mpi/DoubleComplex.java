package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A complex number of two doubles (real, imaginary) in an array or buffer, as {@code MPI.DOUBLE_COMPLEX}
 * lays it out: {@code DoubleComplex.get(array, i)} is the i-th one.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer.duplicate().position(2 * index).slice();
    }

    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /** From a ByteBuffer, read in its own byte order. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.duplicate().clear().asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(0);
    }

    public double getImag() {
        return buffer.get(1);
    }

    public void putReal(double real) {
        buffer.put(0, real);
    }

    public void putImag(double imag) {
        buffer.put(1, imag);
    }

    /** The two doubles of this number. */
    public DoubleBuffer getBuffer() {
        return buffer;
    }
}
