package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A complex number of two floats (real, imaginary) in an array or buffer, as {@code MPI.FLOAT_COMPLEX}
 * lays it out: {@code FloatComplex.get(array, i)} is the i-th one.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer.duplicate().position(2 * index).slice();
    }

    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /** From a ByteBuffer, read in its own byte order. */
    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.duplicate().clear().asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(0);
    }

    public float getImag() {
        return buffer.get(1);
    }

    public void putReal(float real) {
        buffer.put(0, real);
    }

    public void putImag(float imag) {
        buffer.put(1, imag);
    }

    /** The two floats of this number. */
    public FloatBuffer getBuffer() {
        return buffer;
    }
}
