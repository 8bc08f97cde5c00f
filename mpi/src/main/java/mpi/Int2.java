package mpi;

/** The struct of MINLOC and MAXLOC with a int value and an int index: {@code MPI.int2}; its type is {@code MPI.INT2}. */
public final class Int2 extends Struct {
    private final int value = addInt();
    private final int index = addInt();

    Int2() {
        predefined = MPI.INT2;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (int value, int index) pair in a buffer. */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(int v) {
            putInt(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
