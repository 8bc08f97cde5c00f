package mpi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jmca.runtime.Keyvals;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.Type;
import org.jmca.runtime.TypeLayout;
import org.jmca.runtime.UserBuffer;

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

    /** The predefined types in the order they were made: a type's code is its index here. */
    private static final java.util.List<Datatype> PREDEFINED = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** What the runtime uses of the type: its size, primitive, layout, and the arrays that hold it. */
    private final Type type;
    private final int code;
    private final java.util.Map<Integer, Object> attributes = new java.util.HashMap<>();
    private static final Keyvals KEYVALS = new Keyvals("Datatype", 1 << 20);

    /** A predefined type. */
    private Datatype(Type type) {
        this.type = type;
        this.code = PREDEFINED.size();
        PREDEFINED.add(this);
    }

    /** A derived type: {@code base} if all its bytes are of that primitive, else null. */
    private Datatype(String name, TypeLayout layout, Type.Base base) throws MPIException {
        this(derivedType(name, layout, base), -1);
    }

    private Datatype(Type type, int code) {
        this.type = type;
        this.code = code;
    }

    private static Type derivedType(String name, TypeLayout layout, Type.Base base) throws MPIException {
        try {
            return Type.derived(name, layout, base);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    // ---- derived types ----------------------------------------------------------------------

    /** {@code count} elements of {@code oldType} one after another. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        nonNegative(count, "count");
        return derive("contiguous(" + count + ", " + usable(oldType) + ")",
                new TypeLayout.Builder().add(0, count, oldType.type.layout()), oldType.elementBase());
    }

    /** {@code count} blocks of {@code blockLength} elements, the blocks {@code stride} elements of {@code oldType} apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        return hvector("vector", count, blockLength, (long) stride * usable(oldType).type.layout().extent(), oldType);
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
            builder.add(i * strideBytes, blockLength, oldType.type.layout());
        }
        return derive(kind + "(" + count + ", " + blockLength + ", " + strideBytes + " B, " + oldType + ")", builder,
                oldType.elementBase());
    }

    /** Blocks of {@code blockLengths[i]} elements at {@code displacements[i]} elements of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return hindexed("indexed", blockLengths, displacements, usable(oldType).type.layout().extent(), oldType);
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
            builder.add(displacements[i] * unit, blockLengths[i], oldType.type.layout());
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
        Type.Base common = null;
        boolean mixed = false;
        for (int i = 0; i < types.length; i++) {
            nonNegative(blockLengths[i], "block length");
            Datatype t = usable(types[i]);
            builder.add(displacements[i], blockLengths[i], t.type.layout());
            mixed |= t.elementBase() == null || common != null && common != t.elementBase();
            common = t.elementBase();
        }
        return derive("struct(" + types.length + " blocks)", builder, mixed ? null : common);
    }

    /** {@code oldType} with another lower bound and extent, in bytes: to lay elements out at another spacing. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return new Datatype("resized(" + usable(oldType) + ", " + lb + ", " + extent + ")",
                oldType.type.layout().resized(lb, extent), oldType.elementBase());
    }

    /** A copy of this type (MPI_Type_dup), committed if this one is. */
    public Datatype dup() throws MPIException {
        Datatype copy = new Datatype(usable(this).type.copy(), -1);
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
        usable(this).type.commit();
    }

    /** Gives the type back; a predefined one cannot be freed (MPI_ERR_TYPE). */
    @Override
    public void free() throws MPIException {
        if (!usable(this).type.isDerived()) {
            throw new MPIException(MPI.ERR_TYPE, "the predefined " + type.name() + " cannot be freed");
        }
        type.free();
        attributes.clear();
    }

    public void setName(String newName) throws MPIException {
        if (newName == null || newName.length() > MPI.MAX_OBJECT_NAME) {
            throw new MPIException(MPI.ERR_ARG, "a datatype's name is at most MPI.MAX_OBJECT_NAME ("
                    + MPI.MAX_OBJECT_NAME + ") characters");
        }
        usable(this).type.rename(newName);
    }

    public static int createKeyval() throws MPIException {
        return KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        MPIException.mapped(() -> KEYVALS.free(keyval));
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
        return MPIException.mapped(() -> KEYVALS.check(keyval));
    }

    /** A complex type: two of {@code part} (MPI.FLOAT_COMPLEX, MPI.DOUBLE_COMPLEX). */
    static Datatype complex(String name, Type.Base part) {
        try {
            Datatype parts = createContiguous(2, part == Type.Base.FLOAT ? MPI.FLOAT : MPI.DOUBLE);
            Datatype complex = new Datatype(parts.type.asComplex(name), -1);
            complex.commit();
            return complex;
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether this is a complex type, whose products no reduction of its parts computes. */
    boolean isComplex() {
        return type.isComplex();
    }

    /** MPI.DATATYPE_NULL. */
    static Datatype nullType() {
        try {
            Datatype none = new Datatype("MPI.DATATYPE_NULL", new TypeLayout.Builder().build(), null);
            none.type.free();
            return none;
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Datatype derive(String name, TypeLayout.Builder builder, Type.Base base) throws MPIException {
        return new Datatype(name, builder.build(), base);
    }

    private static Datatype usable(Datatype type) throws MPIException {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
        }
        if (type.type.isFreed()) {
            throw new MPIException(MPI.ERR_TYPE, type.type.name() + " has been freed");
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

    /** {@code count} elements of {@code type} in {@code buf} (an array or a buffer), as the runtime moves them. */
    static UserBuffer buffer(Object buf, int count, Datatype type, boolean forReceive) throws MPIException {
        try { // not MPIException.mapped: a capturing lambda per call, and one-sided operations call this each time
            return UserBuffer.of(buf, count, use(type), forReceive);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    /** The bytes of {@code count} elements of {@code type} in {@code buf}, without a copy where they are contiguous. */
    static MemorySegment segment(Object buf, int count, Datatype type, boolean forReceive) throws MPIException {
        try {
            return UserBuffer.segment(buf, count, use(type), forReceive);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    /** The type as a buffer's layout: committed and not freed, or MPI_ERR_TYPE. */
    TypeLayout layoutForUse() throws MPIException {
        try {
            return usable(this).type.layoutForUse();
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    /** The runtime's side of {@code type}, or null for null: the runtime checks it where it uses it. */
    static Type use(Datatype type) {
        return type == null ? null : type.type;
    }

    /** The runtime's types of {@code types}, element by element; null for null. */
    static Type[] use(Datatype[] types) {
        return types == null ? null : Arrays.stream(types).map(Datatype::use).toArray(Type[]::new);
    }


    boolean isDerived() {
        return type.isDerived();
    }

    /** The number that names this type in messages between ranks (one-sided accumulates). */
    int code() {
        return code;
    }

    static Datatype ofCode(int code) {
        return PREDEFINED.get(code);
    }

    /** A primitive type: one array element per datatype element. */
    /** A predefined type the runtime defines. */
    static Datatype predefined(Type type) {
        return new Datatype(type);
    }

    static Datatype primitive(String name, int size, Type.Base base, Class<?> arrayType, Class<?> bufferType) {
        return new Datatype(Type.primitive(name, size, base, arrayType, bufferType));
    }

    /**
     * A (value, int index) pair for MINLOC and MAXLOC.
     *
     * @param arrayType the array holding pairs as two elements each, or null if only buffers can
     */
    static Datatype pair(String name, int size, Type.Base value, int indexOffset, Class<?> arrayType,
                         Class<?> bufferType) {
        return new Datatype(Type.pair(name, size, value, indexOffset, arrayType, bufferType));
    }

    /** Size of one element in bytes (its data, not its extent). */
    public int getSize() throws MPIException {
        return usable(this).type.size();
    }

    public int getExtent() throws MPIException {
        return Math.toIntExact(usable(this).type.layout().extent());
    }

    public int getTrueExtent() throws MPIException {
        return Math.toIntExact(usable(this).type.layout().trueExtent());
    }

    public int getLb() throws MPIException {
        return Math.toIntExact(usable(this).type.layout().lb());
    }

    public int getTrueLb() throws MPIException {
        return Math.toIntExact(usable(this).type.layout().trueLb());
    }

    public String getName() throws MPIException {
        return type.name();
    }

    public boolean isNull() {
        return type.isFreed();
    }


    int size() {
        return type.size();
    }

    Type.Base base() {
        return type.base();
    }

    /** The one primitive of this type's bytes, or null (a struct of several, or a pair of value and index). */
    private Type.Base elementBase() {
        return type.elementBase();
    }

    /** The predefined type a derived type is made of, for a reduction; MPI_ERR_TYPE for a struct of several. */
    Datatype primitive() throws MPIException {
        if (type.base() == null) {
            throw new MPIException(MPI.ERR_TYPE, type.name() + " is made of several primitive types: a reduction"
                    + " needs one");
        }
        return switch (type.base()) {
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
    /** Where this type's bytes lie, and its basic elements. */
    TypeLayout layout() {
        return type.layout();
    }



    boolean isPair() {
        return type.isPair();
    }

    /** The Java array type whose elements this type describes (int[] for MPI.INT), or null if it has none. */
    Class<?> arrayType() {
        return type.arrayType();
    }

    /** Array elements per element of this type: 2 for MPI.INT2, else 1. */
    int arrayElements() {
        return type.arrayElements();
    }


    @Override
    public String toString() {
        return type.name();
    }
}
