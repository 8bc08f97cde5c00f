package mpi;

/**
 * A datatype. JMCA has the predefined types of Open MPI's Java bindings: each maps to one Java
 * array type and a size in bytes; the pair types of MINLOC and MAXLOC hold a value and an int
 * index ({@code MPI.INT2} in an {@code int[]}, the others in a ByteBuffer laid out as the C
 * struct, in native byte order).
 */
public final class Datatype {

    /** The primitive a type is made of, which decides how reductions read it. */
    enum Base { BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE }

    /** The predefined types in the order they were made: a type's code is its index here. */
    private static final java.util.List<Datatype> PREDEFINED = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final String name;
    private final int code;
    private final int size;
    private final Base base;
    private final Class<?> arrayType;
    private final Class<?> bufferType;
    private final int arrayElements;
    private final int indexOffset;

    private Datatype(String name, int size, Base base, Class<?> arrayType, Class<?> bufferType, int arrayElements,
                     int indexOffset) {
        this.name = name;
        this.size = size;
        this.base = base;
        this.arrayType = arrayType;
        this.bufferType = bufferType;
        this.arrayElements = arrayElements;
        this.indexOffset = indexOffset;
        this.code = PREDEFINED.size();
        PREDEFINED.add(this);
    }

    /** The number that names this type in messages between ranks (one-sided accumulates). */
    int code() {
        return code;
    }

    static Datatype ofCode(int code) {
        return PREDEFINED.get(code);
    }

    /** A primitive type: one array element per datatype element. */
    static Datatype primitive(String name, int size, Base base, Class<?> arrayType, Class<?> bufferType) {
        return new Datatype(name, size, base, arrayType, bufferType, 1, -1);
    }

    /**
     * A (value, int index) pair for MINLOC and MAXLOC.
     *
     * @param arrayType the array holding pairs as two elements each, or null if only buffers can
     */
    static Datatype pair(String name, int size, Base value, int indexOffset, Class<?> arrayType, Class<?> bufferType) {
        return new Datatype(name, size, value, arrayType, bufferType, arrayType == null ? 1 : 2, indexOffset);
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

    Base base() {
        return base;
    }

    /** Byte offset of the int index in a pair type, or -1 for a primitive type. */
    int indexOffset() {
        return indexOffset;
    }

    boolean isPair() {
        return indexOffset >= 0;
    }

    /** The Java array type whose elements this type describes (int[] for MPI.INT), or null if it has none. */
    Class<?> arrayType() {
        return arrayType;
    }

    /** Array elements per element of this type: 2 for MPI.INT2, else 1. */
    int arrayElements() {
        return arrayElements;
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
