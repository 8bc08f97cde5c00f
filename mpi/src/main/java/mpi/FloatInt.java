package mpi;

/** The struct of MINLOC and MAXLOC with a float value and an int index: {@code MPI.floatInt}; its type is {@code MPI.FLOAT_INT}. */
public final class FloatInt extends Struct {
    private final int value = addFloat();
    private final int index = addInt();

    FloatInt() {
        predefined = MPI.FLOAT_INT;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (float value, int index) pair in a buffer. */
    public final class Data extends Struct.Data {
        public float getValue() {
            return getFloat(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(float v) {
            putFloat(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
