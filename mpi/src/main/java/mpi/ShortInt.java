package mpi;

/** The struct of MINLOC and MAXLOC with a short value and an int index: {@code MPI.shortInt}; its type is {@code MPI.SHORT_INT}. */
public final class ShortInt extends Struct {
    private final int value = addShort();
    private final int index = addInt();

    ShortInt() {
        predefined = MPI.SHORT_INT;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (short value, int index) pair in a buffer. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(short v) {
            putShort(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
