package mpi;

/**
 * A datatype. JMCA has the predefined types of Open MPI's Java bindings; each maps to one Java
 * array type (its elements) and a size in bytes.
 */
public final class Datatype {
    private final String name;
    private final int size;
    private final Class<?> arrayType;
    private final Class<?> bufferType;

    Datatype(String name, int size, Class<?> arrayType, Class<?> bufferType) {
        this.name = name;
        this.size = size;
        this.arrayType = arrayType;
        this.bufferType = bufferType;
    }

    /** Size of one element in bytes. */
    public int getSize() throws MPIException {
        return size;
    }

    public int getExtent() throws MPIException {
        return size;
    }

    public int getTrueExtent() throws MPIException {
        return size;
    }

    public int getLb() throws MPIException {
        return 0;
    }

    public String getName() throws MPIException {
        return name;
    }

    public boolean isNull() {
        return false;
    }

    int size() {
        return size;
    }

    /** The Java array type whose elements this type describes: int[] for MPI.INT. */
    Class<?> arrayType() {
        return arrayType;
    }

    /** The typed NIO buffer for this type (IntBuffer for MPI.INT); ByteBuffer fits every type. */
    Class<?> bufferType() {
        return bufferType;
    }

    @Override
    public String toString() {
        return name;
    }
}
