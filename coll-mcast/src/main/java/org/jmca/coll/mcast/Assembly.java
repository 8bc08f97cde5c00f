package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.BitSet;
import org.jmca.mca.McaException;

/** A multicast message being put together from its fragments, in whatever order they come. */
final class Assembly {
    private final byte[] data;
    private final int fragmentBytes;
    private final BitSet fragments = new BitSet();
    private int received;

    Assembly(int total, int fragmentBytes) {
        this.data = new byte[total];
        this.fragmentBytes = fragmentBytes;
    }

    int total() {
        return data.length;
    }

    /**
     * Adds the payload of {@code packet} (positioned after the header) at {@code offset}; false if
     * it was there already, or is no fragment of this message: one starts at a multiple of the
     * fragment size and fills it, the last one up to the end.
     */
    boolean add(int offset, ByteBuffer packet) {
        int length = packet.remaining();
        if (!fits(data.length, fragmentBytes, offset, length)) {
            return false;
        }
        int index = offset / fragmentBytes;
        if (fragments.get(index)) {
            return false;
        }
        packet.get(data, offset, length);
        fragments.set(index);
        received += length;
        return true;
    }

    /**
     * Whether {@code length} bytes at {@code offset} are a fragment of a message of {@code total}
     * bytes cut in fragments of {@code fragmentBytes}: at a multiple of the fragment size, filling
     * it, the last one up to the end.
     */
    static boolean fits(int total, int fragmentBytes, int offset, int length) {
        return offset >= 0 && offset % fragmentBytes == 0 && (offset < total || total == 0)
                && length == Math.min(fragmentBytes, total - (long) offset);
    }

    boolean complete() {
        return received == data.length;
    }

    /** The first byte not yet received, for a NACK. */
    int firstMissing() {
        return fragments.nextClearBit(0) * fragmentBytes;
    }

    /** Copies the message into the call's buffer, which the ranks' matching counts make as long. */
    void copyTo(MemorySegment buffer, int root) {
        if (buffer.byteSize() != data.length) {
            throw new McaException("coll/mcast: the broadcast from rank " + root + " brought " + data.length
                    + " bytes where this rank's call has " + buffer.byteSize()
                    + " (the ranks' counts or datatypes differ)");
        }
        MemorySegment.copy(MemorySegment.ofArray(data), 0, buffer, 0, data.length);
    }
}
