package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Where everything lies in one communicator's coll/sm segment, shared by its ranks (a mapped file
 * for processes, native memory for thread ranks).
 *
 * <pre>
 *     0 | magic "JMCA-CSM" (long) | version (int) | ranks (int) | slot bytes (long) | mappings to come (int) |
 *   128 | rank 0's area:
 *       |   +0     flag block 0:  sequence (long), then up to 56 bytes of inline payload
 *       |   +128   flag block 1 ... flag block 7: the same; call s uses block s % 8
 *       |   +1024  done block:    the last call this rank completed (long)
 *       |   +1152  slot 0:        slot bytes, for payloads above 56 bytes; call s uses slot s % 2
 *       |   +1152 + slot  slot 1
 *       | rank 1's area ...
 * </pre>
 *
 * Every block has one writer, the rank whose area it is, and 128 bytes to itself, so that no two
 * writers share a cache line or its prefetched neighbour. Call {@code s} of the communicator (its
 * sequence number, counted alike at every rank from 1): a rank writes its payload, then releases
 * {@code s} into its flag block; readers acquire the flag and find a small payload on the same
 * cache line. Flags only grow, so nothing is ever cleared, and a writer runs ahead of slow readers:
 * it reuses a flag block once every rank's done block says {@code s - 8}, a slot once it says
 * {@code s - 2}, which it usually knows already. A root that broadcasts small messages in a loop
 * thus reads the others' done blocks once every seven calls, not on every call.
 */
final class SmCollLayout {
    static final long MAGIC = 0x4a4d43412d43534dL;
    static final int VERSION = 2;
    static final long HEADER = 128;
    static final long RANKS_OFFSET = 12;
    static final long SLOT_OFFSET = 16;
    static final long MAPPINGS_TO_COME = 24;
    static final long BLOCK = 128;
    /** Payloads up to this size travel in the flag's own cache line. */
    static final int INLINE_BYTES = 56;
    /** Flag blocks per rank: how many calls a writer may run ahead of the slowest reader. */
    static final int FLAGS = 8;
    /** Slots per rank: payloads above the inline size run ahead by this many calls. */
    static final int SLOTS = 2;
    private static final long DONE = FLAGS * BLOCK;
    private static final long FIRST_SLOT = DONE + BLOCK;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    final int ranks;
    final long slotBytes;
    private final long stride;

    SmCollLayout(int ranks, long slotBytes) {
        if (slotBytes % BLOCK != 0) {
            throw new IllegalArgumentException("slot bytes " + slotBytes + " are not a multiple of " + BLOCK);
        }
        this.ranks = ranks;
        this.slotBytes = slotBytes;
        this.stride = FIRST_SLOT + SLOTS * slotBytes;
    }

    long bytes() {
        return HEADER + ranks * stride;
    }

    /** The flag block of call {@code seq}. */
    long flag(int rank, long seq) {
        return HEADER + rank * stride + (seq % FLAGS) * BLOCK;
    }

    long inline(int rank, int block) {
        return HEADER + rank * stride + block * BLOCK + Long.BYTES;
    }

    long done(int rank) {
        return HEADER + rank * stride + DONE;
    }

    long slot(int rank, int slot) {
        return HEADER + rank * stride + FIRST_SLOT + slot * slotBytes;
    }

    /** Writes the header of a new segment; {@code mappings} ranks will map it after its creator. */
    void writeHeader(MemorySegment memory, int mappings) {
        memory.set(ValueLayout.JAVA_INT, 8, VERSION);
        memory.set(ValueLayout.JAVA_INT, RANKS_OFFSET, ranks);
        memory.set(ValueLayout.JAVA_LONG, SLOT_OFFSET, slotBytes);
        memory.set(ValueLayout.JAVA_INT, MAPPINGS_TO_COME, mappings);
        LONG.setRelease(memory, 0L, MAGIC);
    }

    /** Why {@code memory} is not a segment of this layout, or null if it is. */
    String mismatch(MemorySegment memory) {
        if (memory.byteSize() < HEADER || (long) LONG.getAcquire(memory, 0L) != MAGIC
                || memory.get(ValueLayout.JAVA_INT, 8) != VERSION) {
            return "not a coll/sm segment of version " + VERSION;
        }
        int theirRanks = memory.get(ValueLayout.JAVA_INT, RANKS_OFFSET);
        long theirSlot = memory.get(ValueLayout.JAVA_LONG, SLOT_OFFSET);
        if (theirRanks != ranks || theirSlot != slotBytes) {
            return "made for " + theirRanks + " ranks and slots of " + theirSlot + " bytes, expected " + ranks
                    + " ranks and " + slotBytes + " (is coll_sm_slot_size the same at every rank?)";
        }
        return memory.byteSize() < bytes() ? "shorter than its header says" : null;
    }

    /** One more rank has mapped the segment; true if it was the last expected. */
    static boolean mapped(MemorySegment memory) {
        return (int) INT.getAndAdd(memory, MAPPINGS_TO_COME, -1) == 1;
    }

    static long acquire(MemorySegment memory, long offset) {
        return (long) LONG.getAcquire(memory, offset);
    }

    static void release(MemorySegment memory, long offset, long value) {
        LONG.setRelease(memory, offset, value);
    }
}
