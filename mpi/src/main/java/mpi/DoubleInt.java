package mpi;

/** The struct of MINLOC and MAXLOC with a double value and an int index: {@code MPI.doubleInt}; its type is {@code MPI.DOUBLE_INT}. */
public final class DoubleInt extends Struct {
    private final int value = addDouble();
    private final int index = addInt();

    DoubleInt() {
        predefined = MPI.DOUBLE_INT;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (double value, int index) pair in a buffer. */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(double v) {
            putDouble(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
