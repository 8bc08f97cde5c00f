package org.jmca.runtime;

import java.lang.foreign.MemorySegment;

/** MPI_Pack and MPI_Unpack: elements of a type to and from the bytes of a byte[], at a position. */
public final class Packing {
    private Packing() {
    }

    /** Packs {@code incount} elements of {@code type} from {@code inbuf} at {@code position}; the position after them. */
    public static int pack(Object inbuf, int incount, Type type, byte[] outbuf, int position) {
        MemorySegment packed = UserBuffer.of(inbuf, incount, type, false).segment();
        checkRoom(outbuf, position, packed.byteSize(), "pack into");
        MemorySegment.copy(packed, 0, MemorySegment.ofArray(outbuf), position, packed.byteSize());
        return position + (int) packed.byteSize();
    }

    /** Unpacks {@code outcount} elements of {@code type} from {@code inbuf} at {@code position}; the position after them. */
    public static int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Type type) {
        UserBuffer target = UserBuffer.of(outbuf, outcount, type, true);
        long bytes = target.segment().byteSize();
        checkRoom(inbuf, position, bytes, "unpack from");
        MemorySegment.copy(MemorySegment.ofArray(inbuf), position, target.segment(), 0, bytes);
        if (target.afterReceive() != null) {
            target.afterReceive().run();
        }
        return position + (int) bytes;
    }

    private static void checkRoom(byte[] buffer, int position, long bytes, String what) {
        if (buffer == null || position < 0 || position + bytes > buffer.length) {
            throw new MpiError(ErrorClass.TRUNCATE, "cannot " + what + " a byte[] of "
                    + (buffer == null ? "null" : buffer.length) + " bytes at position " + position + ": " + bytes
                    + " bytes needed");
        }
    }
}
