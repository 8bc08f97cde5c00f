package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-like struct as a datatype, as in Open MPI's bindings: a subclass adds its fields in its
 * constructor ({@code addInt()}, {@code addDouble(4)}, ...: each returns the field's offset, aligned
 * as C aligns it), says in {@link #newData()} how to make its {@link Data} view, and reads and
 * writes elements in a ByteBuffer through {@link #getData}. {@link #getType()} is the committed
 * datatype (a struct type resized to the aligned extent) to send them with.
 */
public abstract class Struct {
    private final List<Integer> lengths = new ArrayList<>();
    private final List<Integer> offsets = new ArrayList<>();
    private final List<Datatype> types = new ArrayList<>();
    private int next;
    private int alignment = 1;
    private Datatype datatype;
    /** A predefined pair type that stands for this struct (MPI.DOUBLE_INT for DoubleInt), so MINLOC reads it. */
    Datatype predefined;

    public Struct() {
    }

    /** A view of one element: {@code return new Data();} in the subclass. */
    protected abstract Data newData();

    /** Bytes from one element to the next: the fields, padded to the largest alignment. */
    public final int getExtent() throws MPIException {
        return type().getExtent();
    }

    public final Datatype getType() throws MPIException {
        return type();
    }

    private Datatype type() throws MPIException {
        if (datatype == null) {
            if (predefined != null) {
                datatype = predefined;
            } else {
                Datatype fields = Datatype.createStruct(lengths.stream().mapToInt(Integer::intValue).toArray(),
                        offsets.stream().mapToInt(Integer::intValue).toArray(), types.toArray(Datatype[]::new));
                datatype = Datatype.createResized(fields, 0, align(next, alignment));
                datatype.commit();
            }
        }
        return datatype;
    }

    /** Element 0 of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /** Element {@code index} of {@code buffer}. */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        Data data = newData();
        data.buffer = buffer;
        data.offset = index * getExtent();
        return (T) data;
    }

    /** Element 0 of {@code array}, in this machine's byte order. */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(array, 0);
    }

    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /** The next field goes at {@code offset} (before alignment). */
    public final Struct setOffset(int offset) {
        next = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return add(length, MPI.BYTE, 1, 1);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return add(length, MPI.CHAR, 2, 2);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return add(length, MPI.SHORT, 2, 2);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return add(length, MPI.INT, 4, 4);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return add(length, MPI.LONG, 8, 8);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return add(length, MPI.FLOAT, 4, 4);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return add(length, MPI.DOUBLE, 8, 8);
    }

    /** A field that is another struct (or {@code length} of them). */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        return add(length, struct.getType(), struct.getExtent(), struct.alignment);
    }

    /** A field of any datatype, aligned to the largest power of two up to 8 that divides its extent. */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        int extent = type.getExtent();
        return add(length, type, extent, Math.max(1, Math.min(8, Integer.lowestOneBit(Math.max(1, extent)))));
    }

    private int add(int length, Datatype type, int size, int align) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's datatype is made already: add every field in the constructor");
        }
        next = align(next, align);
        int field = next;
        lengths.add(length);
        offsets.add(field);
        types.add(type);
        next += length * size;
        alignment = Math.max(alignment, align);
        return field;
    }

    private static int align(int offset, int align) {
        return (offset + align - 1) / align * align;
    }

    /** One element of a struct in a buffer: the subclass reads and writes its fields by their offsets. */
    public abstract class Data {
        ByteBuffer buffer;
        int offset;

        public Data() {
        }

        /** The buffer this element is in. */
        public final ByteBuffer getBuffer() {
            return buffer;
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte value) {
            buffer.put(offset + field, value);
        }

        protected final void putByte(int field, int index, byte value) {
            buffer.put(offset + field + index, value);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + 2 * index);
        }

        protected final void putChar(int field, char value) {
            buffer.putChar(offset + field, value);
        }

        protected final void putChar(int field, int index, char value) {
            buffer.putChar(offset + field + 2 * index, value);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + 2 * index);
        }

        protected final void putShort(int field, short value) {
            buffer.putShort(offset + field, value);
        }

        protected final void putShort(int field, int index, short value) {
            buffer.putShort(offset + field + 2 * index, value);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + 4 * index);
        }

        protected final void putInt(int field, int value) {
            buffer.putInt(offset + field, value);
        }

        protected final void putInt(int field, int index, int value) {
            buffer.putInt(offset + field + 4 * index, value);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + 8 * index);
        }

        protected final void putLong(int field, long value) {
            buffer.putLong(offset + field, value);
        }

        protected final void putLong(int field, int index, long value) {
            buffer.putLong(offset + field + 8 * index, value);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + 4 * index);
        }

        protected final void putFloat(int field, float value) {
            buffer.putFloat(offset + field, value);
        }

        protected final void putFloat(int field, int index, float value) {
            buffer.putFloat(offset + field + 4 * index, value);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + 8 * index);
        }

        protected final void putDouble(int field, double value) {
            buffer.putDouble(offset + field, value);
        }

        protected final void putDouble(int field, int index, double value) {
            buffer.putDouble(offset + field + 8 * index, value);
        }

        /** The struct field at {@code field}, as its own Data. */
        protected final <S extends Struct, D extends Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        @SuppressWarnings("unchecked")
        protected final <S extends Struct, D extends Data> D getData(S struct, int field, int index) {
            Data data = struct.newData();
            data.buffer = buffer;
            try {
                data.offset = offset + field + index * struct.getExtent();
            } catch (MPIException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            return (D) data;
        }

        /** A buffer that starts at {@code field}, for a field of {@code type}. */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            return buffer.duplicate().position(offset + field).slice().order(buffer.order());
        }

        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            return buffer.duplicate().position(offset + field + index * type.getExtent()).slice().order(buffer.order());
        }
    }
}
