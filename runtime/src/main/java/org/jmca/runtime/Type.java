package org.jmca.runtime;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * A datatype as the runtime uses it: its size, the primitive its bytes are of, where they lie
 * ({@link TypeLayout}), which Java arrays and buffers hold it, and whether it may be used yet
 * (committed) or no more (freed). The mpi package's {@code Datatype} holds one; what the program
 * sees only there (its attributes) stays there.
 */
public final class Type {
    /** The primitive a type is made of, which decides how reductions read it. */
    public enum Base { BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE }

    private volatile String name;
    private final int size;
    private final Base base;
    private final TypeLayout layout;
    private final boolean derived;
    private final boolean complex;
    private final Class<?> arrayType;
    private final Class<?> bufferType;
    private final int arrayElements;
    private final int indexOffset;
    /** A predefined type is committed from the start; a derived one once the program commits it. */
    private volatile boolean committed;
    private volatile boolean freed;

    private Type(String name, int size, Base base, TypeLayout layout, boolean derived, boolean complex,
                 Class<?> arrayType, Class<?> bufferType, int arrayElements, int indexOffset) {
        this.name = name;
        this.size = size;
        this.base = base;
        this.layout = layout;
        this.derived = derived;
        this.complex = complex;
        this.arrayType = arrayType;
        this.bufferType = bufferType;
        this.arrayElements = arrayElements;
        this.indexOffset = indexOffset;
        this.committed = !derived;
    }

    /** The predefined types the runtime's own calls use (the mpi package's MPI.BYTE, INT and LONG are these). */
    public static final Type BYTE = primitive("MPI.BYTE", 1, Base.BYTE, byte[].class, ByteBuffer.class);
    public static final Type INT = primitive("MPI.INT", Integer.BYTES, Base.INT, int[].class, IntBuffer.class);
    public static final Type LONG = primitive("MPI.LONG", Long.BYTES, Base.LONG, long[].class, LongBuffer.class);

    /** A predefined primitive type: one array element per datatype element. */
    public static Type primitive(String name, int size, Base base, Class<?> arrayType, Class<?> bufferType) {
        return new Type(name, size, base, TypeLayout.primitive(size), false, false, arrayType, bufferType, 1, -1);
    }

    /**
     * A predefined (value, int index) pair for MINLOC and MAXLOC.
     *
     * @param arrayType the array holding pairs as two elements each, or null if only buffers can
     */
    public static Type pair(String name, int size, Base value, int indexOffset, Class<?> arrayType,
                            Class<?> bufferType) {
        // two basic elements, each up to where the next begins: the message carries the padding
        return new Type(name, size, value, TypeLayout.primitive(size).withBasics(indexOffset, size - indexOffset),
                false, false, arrayType, bufferType, arrayType == null ? 1 : 2, indexOffset);
    }

    /**
     * A derived type of {@code layout}: {@code base} if all its bytes are of that primitive, else null.
     *
     * @throws MpiError of class TYPE if it would pass 2 GiB
     */
    public static Type derived(String name, TypeLayout layout, Base base) {
        if (layout.size() > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.TYPE, name + " would be " + layout.size() + " bytes, more than 2 GiB");
        }
        return new Type(name, (int) layout.size(), base, layout, true, false, null, null, 1, -1);
    }

    /** This derived type as a complex one: two of its part, whose products no reduction of its parts computes. */
    public Type asComplex(String complexName) {
        return new Type(complexName, size, base, layout, derived, true, arrayType, bufferType, arrayElements,
                indexOffset);
    }

    /**
     * A copy, with a name of its own (MPI_Type_dup): a derived type of the same layout, committed if
     * this one is, which the program may free - even the copy of a predefined type.
     */
    public Type copy() {
        Type copy = new Type(name, size, base, layout, true, complex, null, null, 1, -1);
        copy.committed = committed;
        return copy;
    }

    public void commit() {
        committed = true;
    }

    public boolean isCommitted() {
        return committed;
    }

    public void free() {
        freed = true;
    }

    public boolean isFreed() {
        return freed;
    }

    /**
     * The layout, for a buffer of this type.
     *
     * @throws MpiError of class TYPE if the type has been freed or is not committed
     */
    public TypeLayout layoutForUse() {
        if (freed) {
            throw new MpiError(ErrorClass.TYPE, name + " has been freed");
        }
        if (!committed) {
            throw new MpiError(ErrorClass.TYPE, name + " is not committed: call commit() before using it");
        }
        return layout;
    }

    public String name() {
        return name;
    }

    public void rename(String newName) {
        this.name = newName;
    }

    /** Size of one element in bytes (its data, not its extent). */
    public int size() {
        return size;
    }

    public Base base() {
        return base;
    }

    public TypeLayout layout() {
        return layout;
    }

    public boolean isDerived() {
        return derived;
    }

    public boolean isComplex() {
        return complex;
    }

    /** Byte offset of the int index in a pair type, or -1. */
    public int indexOffset() {
        return indexOffset;
    }

    public boolean isPair() {
        return indexOffset >= 0;
    }

    /** MPI.BOOLEAN: the one type held by boolean[], which has no memory segment of its own. */
    public boolean isBoolean() {
        return !derived && base == Base.BOOLEAN;
    }

    /** Whether a buffer of this type must go through a packed copy (its bytes are not one run, or booleans). */
    public boolean needsPacking() {
        return derived && !layout.contiguous() || isBoolean();
    }

    /** The Java array type whose elements this type describes (int[] for MPI.INT), or null if it has none. */
    public Class<?> arrayType() {
        return arrayType;
    }

    /** Array elements per element of this type: 2 for MPI.INT2, else 1. */
    public int arrayElements() {
        return arrayElements;
    }

    /** The typed NIO buffer for this type (IntBuffer for MPI.INT); ByteBuffer fits every type. */
    public Class<?> bufferType() {
        return bufferType;
    }

    /** The one primitive of this type's bytes, or null (a struct of several, or a pair of value and index). */
    public Base elementBase() {
        return isPair() ? null : base;
    }

    /** Bytes of the primitive a derived type is made of (1 for a struct of several); a predefined type's size. */
    public int primitiveSize() {
        return !derived ? size : base == null ? 1 : sizeOf(base);
    }

    public static int sizeOf(Base base) {
        return switch (base) {
            case BYTE, BOOLEAN -> 1;
            case CHAR, SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
