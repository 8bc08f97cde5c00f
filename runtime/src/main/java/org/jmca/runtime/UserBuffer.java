package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import org.jmca.runtime.TypeLayout;

/**
 * A user's buffer as the bytes the PML moves. Arrays and buffers (heap or direct) are used in
 * place — no copy — through {@link MemorySegment#ofArray} and {@link MemorySegment#ofBuffer};
 * only {@code boolean[]}, which has no segment view, goes through a byte array, copied once
 * before a send and once after a receive.
 *
 * @param segment         the bytes the message occupies
 * @param afterReceive    what to do once a receive completed (unpack booleans), or null
 */
public record UserBuffer(MemorySegment segment, Runnable afterReceive) {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    /** The region of {@code count} elements of {@code type} at the start of {@code buf}. */
    public static UserBuffer of(Object buf, int count, Type type, boolean forReceive) {
        if (buf instanceof boolean[] booleans && type != null && type.isBoolean() && count >= 0) {
            checkLength(booleans.length, count, type);
            return booleans(booleans, count, forReceive);
        }
        if (type != null && type.isDerived() && !type.layoutForUse().contiguous()) {
            return laidOut(buf, count, type, forReceive);
        }
        return new UserBuffer(segment(buf, count, type, forReceive), null);
    }

    /**
     * A derived type whose bytes are not one run: its elements packed into a contiguous copy (for
     * a receive, of what the buffer holds now, so what no message reaches stays as it was),
     * unpacked after a receive.
     */
    private static UserBuffer laidOut(Object buf, int count, Type type, boolean forReceive) {
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "count " + count + " is negative");
        }
        TypeLayout layout = type.layoutForUse();
        MemorySegment packed = MemorySegment.ofArray(new byte[Math.toIntExact((long) count * type.size())]);
        if (count == 0) {
            return new UserBuffer(packed, null);
        }
        MemorySegment whole;
        if (layout.trueLb() < 0) {
            // a type map below the buffer's start: the memory there is the program's if the
            // buffer is a slice of a larger one, as Open MPI's bindings read it
            long below = -layout.trueLb();
            whole = reachingBelow(buf, below, forReceive);
            if (whole == null) {
                throw new MpiError(ErrorClass.TYPE, type + " reaches " + below + " bytes before the start of the "
                        + describe(buf) + ", outside it: only a slice of a larger buffer (MPI.slice(buffer, offset),"
                        + " or a heap buffer's array from its array offset) has memory there");
            }
            layout = layout.movedBy(below);
        } else {
            whole = wholeSegment(buf, forReceive);
        }
        long span = layout.span(count);
        if (whole.byteSize() < span) {
            throw new MpiError(ErrorClass.BUFFER, "buffer too small: count " + count + " of " + type + " spans "
                    + span + " bytes, the " + buf.getClass().getSimpleName() + " holds " + whole.byteSize());
        }
        layout.pack(whole, count, packed);
        TypeLayout laid = layout;
        return new UserBuffer(packed, forReceive ? () -> laid.unpack(packed, packed.byteSize(), whole, count) : null);
    }

    /**
     * The memory from {@code below} bytes before {@code buf}'s start to its end, where that belongs
     * to the array or direct buffer it was cut from; null where it does not.
     */
    private static MemorySegment reachingBelow(Object buf, long below, boolean forReceive) {
        if (!(buf instanceof Buffer buffer)) {
            return null;
        }
        if (forReceive && buffer.isReadOnly()) {
            throw new MpiError(ErrorClass.BUFFER, "the receive buffer is read-only");
        }
        if (buffer.hasArray()) {
            int element = elementSize(buffer);
            long before = (long) buffer.arrayOffset() * element;
            if (before < below) {
                return null;
            }
            return newSegment(buffer.array()).asSlice(before - below, below + (long) buffer.capacity() * element);
        }
        return buffer.isDirect() ? SliceOrigins.reachingBelow(buffer, below) : null;
    }

    private static String describe(Object buf) {
        return buf == null ? "null buffer" : (buf instanceof Buffer b && b.isDirect() ? "direct " : "")
                + buf.getClass().getSimpleName();
    }

    /** {@code buffer} from byte {@code offset} on (a typed buffer at a whole number of its elements). */
    public static Buffer atByte(Buffer buffer, int offset) {
        if (buffer == null) {
            throw new MpiError(ErrorClass.BUFFER, "the buffer is null");
        }
        int element = elementSize(buffer);
        if (offset < 0 || offset % element != 0 || offset / element > buffer.capacity()) {
            throw new MpiError(ErrorClass.ARG, "displacement " + offset + " bytes is not a whole element of a "
                    + buffer.getClass().getSimpleName() + " of " + buffer.capacity() + " elements");
        }
        return buffer.duplicate().clear().position(offset / element).slice();
    }

    /** Bytes per element of a java.nio buffer. */
    public static int elementSize(Buffer buffer) {
        // instanceof tests rather than a pattern switch: its bootstrap makes a class at run time,
        // which the AOT cache does not keep
        if (buffer instanceof ByteBuffer) {
            return 1;
        } else if (buffer instanceof java.nio.CharBuffer || buffer instanceof java.nio.ShortBuffer) {
            return 2;
        } else if (buffer instanceof java.nio.IntBuffer || buffer instanceof java.nio.FloatBuffer) {
            return 4;
        } else if (buffer instanceof java.nio.LongBuffer || buffer instanceof java.nio.DoubleBuffer) {
            return 8;
        }
        throw new MpiError(ErrorClass.BUFFER, "a " + buffer.getClass().getSimpleName() + " is not a buffer JMCA can read");
    }

    /** Every byte of an array or buffer, for a laid-out type. */
    private static MemorySegment wholeSegment(Object buf, boolean forReceive) {
        if (buf instanceof Buffer buffer) {
            if (forReceive && buffer.isReadOnly()) {
                throw new MpiError(ErrorClass.BUFFER, "the receive buffer is read-only");
            }
            return MemorySegment.ofBuffer(buffer.duplicate().clear());
        }
        if (buf != null && buf.getClass().isArray() && buf.getClass().componentType().isPrimitive()
                && !(buf instanceof boolean[])) {
            return newSegment(buf);
        }
        throw new MpiError(ErrorClass.BUFFER, (buf == null ? "a null buffer" : "a " + buf.getClass().getSimpleName())
                + " cannot hold a derived type: pass a primitive array (not boolean[]) or a java.nio buffer");
    }

    /**
     * The bytes of {@code count} elements of {@code type} at the start of {@code buf}, without a
     * copy — for every buffer but a {@code boolean[]} (see {@link #of}), which this refuses.
     */
    public static MemorySegment segment(Object buf, int count, Type type, boolean forReceive) {
        if (type == null) {
            throw new MpiError(ErrorClass.TYPE, "the datatype is null");
        }
        if (type.isDerived() && !type.layoutForUse().contiguous()) {
            throw new MpiError(ErrorClass.TYPE, type + " is not contiguous: this operation takes contiguous types only");
        }
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "count " + count + " is negative");
        }
        long bytes = (long) count * type.size();
        if (buf == null) {
            if (count == 0) {
                return EMPTY;
            }
            throw new MpiError(ErrorClass.BUFFER, "the buffer is null but count is " + count);
        }
        // as Open MPI's bindings: any primitive array or NIO buffer holds any type, as raw memory
        // in this machine's byte order, as long as the elements fit
        MemorySegment whole;
        if (buf instanceof Buffer buffer) {
            if (forReceive && buffer.isReadOnly()) {
                throw new MpiError(ErrorClass.BUFFER, "the receive buffer is read-only");
            }
            whole = MemorySegment.ofBuffer(buffer.duplicate().clear());
            if (whole.byteSize() < bytes) {
                throw new MpiError(ErrorClass.BUFFER, "buffer too small: " + count + " " + type + " need " + bytes
                        + " bytes, the " + buffer.getClass().getSimpleName() + " holds " + whole.byteSize());
            }
        } else if (buf.getClass().isArray() && buf.getClass().componentType().isPrimitive()
                && !(buf instanceof boolean[])) {
            whole = arraySegment(buf);
            if (whole.byteSize() < bytes) {
                throw new MpiError(ErrorClass.BUFFER, "buffer too small: count " + count + " of " + type + " needs "
                        + bytes + " bytes but the " + buf.getClass().getSimpleName() + " of " + Array.getLength(buf)
                        + " elements holds " + whole.byteSize());
            }
        } else {
            throw new MpiError(ErrorClass.BUFFER, "a " + buf.getClass().getSimpleName() + " is not a buffer: pass a"
                    + " primitive array or a java.nio buffer" + (buf instanceof boolean[] ? " (a boolean[] holds only"
                    + " MPI.BOOLEAN)" : ""));
        }
        return whole.byteSize() == bytes ? whole : whole.asSlice(0, bytes);
    }

    private static void checkLength(int length, int count, Type type) {
        if (length < (long) count * type.arrayElements()) {
            throw new MpiError(ErrorClass.BUFFER, "buffer too small: count " + count + " of " + type + " needs "
                    + (long) count * type.arrayElements() + " array elements but the "
                    + type.arrayType().getSimpleName() + " holds " + length + " elements");
        }
    }

    /**
     * The segments of the last two arrays a thread used: making a heap segment costs a memory
     * session each time, and programs send and receive from the same arrays over and over. Per
     * thread, as thread ranks share this class: one rank's arrays must not push out another's.
     */
    private static final class Recent {
        Object newestArray;
        MemorySegment newest;
        Object olderArray;
        MemorySegment older;
    }

    private static final ThreadLocal<Recent> RECENT = ThreadLocal.withInitial(Recent::new);

    private static MemorySegment arraySegment(Object array) {
        Recent recent = RECENT.get();
        if (recent.newestArray == array) {
            return recent.newest;
        }
        Object olderArray = recent.olderArray;
        MemorySegment older = recent.older;
        recent.olderArray = recent.newestArray;
        recent.older = recent.newest;
        recent.newestArray = array;
        recent.newest = olderArray == array ? older : newSegment(array);
        return recent.newest;
    }

    /** A heap segment over a primitive array (no cache: for short-lived copies). */
    public static MemorySegment newSegment(Object array) {
        // instanceof tests rather than a pattern switch (see elementSize)
        if (array instanceof byte[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof double[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof int[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof long[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof float[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof char[] a) {
            return MemorySegment.ofArray(a);
        } else if (array instanceof short[] a) {
            return MemorySegment.ofArray(a);
        }
        throw new IllegalArgumentException("not a primitive array: " + array.getClass());
    }

    private static UserBuffer booleans(boolean[] values, int count, boolean forReceive) {
        byte[] bytes = new byte[count];
        if (!forReceive) {
            for (int i = 0; i < count; i++) {
                bytes[i] = (byte) (values[i] ? 1 : 0);
            }
            return new UserBuffer(MemorySegment.ofArray(bytes), null);
        }
        MemorySegment segment = MemorySegment.ofArray(bytes);
        return new UserBuffer(segment, () -> {
            for (int i = 0; i < count; i++) {
                values[i] = segment.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
        });
    }
}
