package mpi;

/**
 * A datatype. The predefined types of Open MPI's Java bindings each map to one Java array type
 * and a size in bytes; the pair types of MINLOC and MAXLOC hold a value and an int index
 * ({@code MPI.INT2} in an {@code int[]}, the others in a ByteBuffer laid out as the C struct, in
 * native byte order). Derived types (contiguous, vector, hvector, indexed, hindexed, struct,
 * resized) describe where their bytes lie as a {@link TypeLayout}, compiled when they are made;
 * displacements and strides in bytes are from the start of the buffer, in any array or buffer.
 * A derived type must be committed before it is used, and may be freed.
 */
public final class Datatype implements Freeable, Cloneable {

    /** The primitive a type is made of, which decides how reductions read it. */
    enum Base { BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE }

    /** The predefined types in the order they were made: a type's code is its index here. */
    private static final java.util.List<Datatype> PREDEFINED = new java.util.concurrent.CopyOnWriteArrayList<>();

    private String name;
    private final int code;
    private final int size;
    /** The one primitive every byte belongs to, or null for a struct of several. */
    private final Base base;
    private final TypeLayout layout;
    private final boolean derived;
    private boolean committed;
    private boolean freed;
    private boolean complex;
    private final java.util.Map<Integer, Object> attributes = new java.util.HashMap<>();
    private static final Keyvals KEYVALS = new Keyvals("Datatype", 1 << 20);
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
        this.layout = TypeLayout.primitive(size);
        this.derived = false;
        this.committed = true;
        this.code = PREDEFINED.size();
        PREDEFINED.add(this);
    }

    /** A derived type: {@code base} if all its bytes are of that primitive, else null. */
    private Datatype(String name, TypeLayout layout, Base base) throws MPIException {
        if (layout.size() > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_TYPE, name + " would be " + layout.size() + " bytes, more than 2 GiB");
        }
        this.name = name;
        this.size = (int) layout.size();
        this.base = base;
        this.arrayType = null;
        this.bufferType = null;
        this.arrayElements = 1;
        this.indexOffset = -1;
        this.layout = layout;
        this.derived = true;
        this.code = -1;
    }

    // ---- derived types ----------------------------------------------------------------------

    /** {@code count} elements of {@code oldType} one after another. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        nonNegative(count, "count");
        return derive("contiguous(" + count + ", " + usable(oldType) + ")",
                new TypeLayout.Builder().add(0, count, oldType.layout), oldType.elementBase());
    }

    /** {@code count} blocks of {@code blockLength} elements, the blocks {@code stride} elements of {@code oldType} apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        return hvector("vector", count, blockLength, (long) stride * usable(oldType).layout.extent(), oldType);
    }

    /** As {@link #createVector}, the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        return hvector("hvector", count, blockLength, stride, usable(oldType));
    }

    private static Datatype hvector(String kind, int count, int blockLength, long strideBytes, Datatype oldType)
            throws MPIException {
        nonNegative(count, "count");
        nonNegative(blockLength, "block length");
        TypeLayout.Builder builder = new TypeLayout.Builder();
        for (int i = 0; i < count; i++) {
            builder.add(i * strideBytes, blockLength, oldType.layout);
        }
        return derive(kind + "(" + count + ", " + blockLength + ", " + strideBytes + " B, " + oldType + ")", builder,
                oldType.elementBase());
    }

    /** Blocks of {@code blockLengths[i]} elements at {@code displacements[i]} elements of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return hindexed("indexed", blockLengths, displacements, usable(oldType).layout.extent(), oldType);
    }

    /** As {@link #createIndexed}, the displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return hindexed("hindexed", blockLengths, displacements, 1, usable(oldType));
    }

    private static Datatype hindexed(String kind, int[] blockLengths, int[] displacements, long unit,
                                     Datatype oldType) throws MPIException {
        sameLength(blockLengths, displacements, "displacements");
        TypeLayout.Builder builder = new TypeLayout.Builder();
        for (int i = 0; i < blockLengths.length; i++) {
            nonNegative(blockLengths[i], "block length");
            builder.add(displacements[i] * unit, blockLengths[i], oldType.layout);
        }
        return derive(kind + "(" + blockLengths.length + " blocks, " + oldType + ")", builder, oldType.elementBase());
    }

    /** Blocks of {@code blockLengths[i]} elements of {@code types[i]} at byte {@code displacements[i]}. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        sameLength(blockLengths, displacements, "displacements");
        if (types == null || types.length != blockLengths.length) {
            throw new MPIException(MPI.ERR_ARG, "createStruct: " + blockLengths.length + " block lengths but "
                    + (types == null ? "no" : types.length) + " types");
        }
        TypeLayout.Builder builder = new TypeLayout.Builder();
        Base common = null;
        boolean mixed = false;
        for (int i = 0; i < types.length; i++) {
            nonNegative(blockLengths[i], "block length");
            Datatype t = usable(types[i]);
            builder.add(displacements[i], blockLengths[i], t.layout);
            mixed |= t.elementBase() == null || common != null && common != t.elementBase();
            common = t.elementBase();
        }
        return derive("struct(" + types.length + " blocks)", builder, mixed ? null : common);
    }

    /** {@code oldType} with another lower bound and extent, in bytes: to lay elements out at another spacing. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return new Datatype("resized(" + usable(oldType) + ", " + lb + ", " + extent + ")",
                oldType.layout.resized(lb, extent), oldType.elementBase());
    }

    /** A copy of this type (MPI_Type_dup), committed if this one is. */
    public Datatype dup() throws MPIException {
        Datatype copy = new Datatype(usable(this).name, layout, elementBase());
        copy.committed = committed;
        copy.attributes.putAll(attributes);
        return copy;
    }

    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Makes the type usable in communication; a predefined type is always committed. */
    public void commit() throws MPIException {
        usable(this).committed = true;
    }

    /** Gives the type back; a predefined one cannot be freed (MPI_ERR_TYPE). */
    @Override
    public void free() throws MPIException {
        if (!usable(this).derived) {
            throw new MPIException(MPI.ERR_TYPE, "the predefined " + name + " cannot be freed");
        }
        freed = true;
        attributes.clear();
    }

    public void setName(String newName) throws MPIException {
        if (newName == null || newName.length() > MPI.MAX_OBJECT_NAME) {
            throw new MPIException(MPI.ERR_ARG, "a datatype's name is at most MPI.MAX_OBJECT_NAME ("
                    + MPI.MAX_OBJECT_NAME + ") characters");
        }
        usable(this).name = newName;
    }

    public static int createKeyval() throws MPIException {
        return KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        KEYVALS.free(keyval);
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        usable(this).attributes.put(keyval(keyval), value);
    }

    /** The attribute's value, or null if it is not set. */
    public Object getAttr(int keyval) throws MPIException {
        return usable(this).attributes.get(keyval(keyval));
    }

    public void deleteAttr(int keyval) throws MPIException {
        usable(this).attributes.remove(keyval(keyval));
    }

    private static int keyval(int keyval) throws MPIException {
        return KEYVALS.check(keyval);
    }

    /** A complex type: two of {@code part} (MPI.FLOAT_COMPLEX, MPI.DOUBLE_COMPLEX). */
    static Datatype complex(String name, Base part) {
        try {
            Datatype complex = createContiguous(2, part == Base.FLOAT ? MPI.FLOAT : MPI.DOUBLE);
            complex.name = name;
            complex.complex = true;
            complex.commit();
            return complex;
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether this is a complex type, whose products no reduction of its parts computes. */
    boolean isComplex() {
        return complex;
    }

    /** MPI.DATATYPE_NULL. */
    static Datatype nullType() {
        try {
            Datatype none = new Datatype("MPI.DATATYPE_NULL", new TypeLayout.Builder().build(), null);
            none.freed = true;
            return none;
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Datatype derive(String name, TypeLayout.Builder builder, Base base) throws MPIException {
        return new Datatype(name, builder.build(), base);
    }

    private static Datatype usable(Datatype type) throws MPIException {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
        }
        if (type.freed) {
            throw new MPIException(MPI.ERR_TYPE, type.name + " has been freed");
        }
        return type;
    }

    private static void nonNegative(int value, String what) throws MPIException {
        if (value < 0) {
            throw new MPIException(MPI.ERR_COUNT, what + " " + value + " is negative");
        }
    }

    private static void sameLength(int[] blockLengths, int[] displacements, String what) throws MPIException {
        if (blockLengths == null || displacements == null || blockLengths.length != displacements.length) {
            throw new MPIException(MPI.ERR_ARG, (blockLengths == null ? "no" : blockLengths.length)
                    + " block lengths but " + (displacements == null ? "no" : displacements.length) + " " + what);
        }
    }

    /** The type as a buffer's layout: committed and not freed, or MPI_ERR_TYPE. */
    TypeLayout layoutForUse() throws MPIException {
        if (!usable(this).committed) {
            throw new MPIException(MPI.ERR_TYPE, name + " is not committed: call commit() before using it");
        }
        return layout;
    }

    /** Whether a buffer of this type must go through a packed copy (its bytes are not one run, or booleans). */
    boolean needsPacking() {
        return derived && !layout.contiguous() || this == MPI.BOOLEAN;
    }

    boolean isDerived() {
        return derived;
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

    /** Size of one element in bytes (its data, not its extent). */
    public int getSize() throws MPIException {
        return usable(this).size;
    }

    public int getExtent() throws MPIException {
        return Math.toIntExact(usable(this).layout.extent());
    }

    public int getTrueExtent() throws MPIException {
        return Math.toIntExact(usable(this).layout.trueExtent());
    }

    public int getLb() throws MPIException {
        return Math.toIntExact(usable(this).layout.lb());
    }

    public int getTrueLb() throws MPIException {
        return Math.toIntExact(usable(this).layout.trueLb());
    }

    public String getName() throws MPIException {
        return name;
    }

    public boolean isNull() {
        return freed;
    }

    int size() {
        return size;
    }

    Base base() {
        return base;
    }

    /** The one primitive of this type's bytes, or null (a struct of several, or a pair of value and index). */
    private Base elementBase() {
        return isPair() ? null : base;
    }

    /** The predefined type a derived type is made of, for a reduction; MPI_ERR_TYPE for a struct of several. */
    Datatype primitive() throws MPIException {
        if (base == null) {
            throw new MPIException(MPI.ERR_TYPE, name + " is made of several primitive types: a reduction needs one");
        }
        return switch (base) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    /** Bytes of the primitive a derived type is made of (1 for a struct of several); a predefined type's size. */
    int primitiveSize() {
        if (!derived) {
            return size;
        }
        return base == null ? 1 : switch (base) {
            case BYTE, BOOLEAN -> 1;
            case CHAR, SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
        };
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
