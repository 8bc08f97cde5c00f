package mpi;

/** The struct of MINLOC and MAXLOC with a long value and an int index: {@code MPI.longInt}; its type is {@code MPI.LONG_INT}. */
public final class LongInt extends Struct {
    private final int value = addLong();
    private final int index = addInt();

    LongInt() {
        predefined = MPI.LONG_INT;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (long value, int index) pair in a buffer. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(long v) {
            putLong(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
