package org.jmca.btl.sm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.McaException;

/**
 * One rank's receive segment: a file (mode 0600) mapped with {@link FileChannel#map} into a
 * {@link MemorySegment}, holding one {@link SharedRing} per sending rank.
 *
 * <pre>
 *   0 | magic "JMCA-SM1"   (long) |
 *   8 | layout version      (int) |
 *  12 | ranks in the job    (int) |
 *  16 | owner's pid        (long) |
 *  24 | ring capacity       (int) |
 *  28 | mappings to come    (int) |  peers add 1 as they map, the owner takes the peers it expects
 *  64 | doorbell                  |  FutexDoorbell, on a cache line of its own
 * 128 | ring of sender 0          |  each SharedRing.bytesFor(capacity) bytes
 *     | ring of sender 1 ...      |
 * </pre>
 *
 * The owner creates it before the address exchange; peers map it after, and check the header.
 * Whoever brings "mappings to come" to zero — the owner once its peers are known, or the last
 * peer to map it — removes the file: from then on it lives only in the mappings, so that nothing
 * is left in /dev/shm when a rank is killed, whatever launcher started the job.
 */
final class SmSegment {
    private static final long MAGIC = 0x4a4d43412d534d31L;
    private static final int VERSION = 2;
    private static final long DOORBELL = 64;
    private static final int HEADER = 128;
    private static final long MAPPINGS_TO_COME = 28;
    private static final VarHandle COUNT = ValueLayout.JAVA_INT.varHandle();

    final Path path;
    final long ownerPid;
    final int ranks;
    final int ringCapacity;
    private final MemorySegment memory;

    private SmSegment(Path path, MemorySegment memory, int ranks, int ringCapacity) {
        this.path = path;
        this.ownerPid = memory.get(ValueLayout.JAVA_LONG, 16);
        this.memory = memory;
        this.ranks = ranks;
        this.ringCapacity = ringCapacity;
    }

    static long bytesFor(int ranks, int ringCapacity) {
        return HEADER + ranks * SharedRing.bytesFor(ringCapacity);
    }

    /** Creates and maps a new segment file; fails if the file exists already. */
    static SmSegment create(Path path, int ranks, int ringCapacity, Arena arena) {
        SharedRing.checkCapacity(ringCapacity);
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytesFor(ranks, ringCapacity), arena);
                memory.set(ValueLayout.JAVA_INT, 8, VERSION);
                memory.set(ValueLayout.JAVA_INT, 12, ranks);
                memory.set(ValueLayout.JAVA_LONG, 16, ProcessHandle.current().pid());
                memory.set(ValueLayout.JAVA_INT, 24, ringCapacity);
                memory.set(ValueLayout.JAVA_LONG, 0, MAGIC);
                return new SmSegment(path, memory, ranks, ringCapacity);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("btl/sm: cannot create the shared-memory file " + path + ": " + e, e);
        }
    }

    /** Maps a peer's segment and checks its header. */
    static SmSegment open(Path path, Arena arena) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            if (memory.byteSize() < HEADER || memory.get(ValueLayout.JAVA_LONG, 0) != MAGIC
                    || memory.get(ValueLayout.JAVA_INT, 8) != VERSION) {
                throw new IllegalStateException("btl/sm: " + path + " is not a JMCA shared-memory segment of version "
                        + VERSION);
            }
            int ranks = memory.get(ValueLayout.JAVA_INT, 12);
            int capacity = memory.get(ValueLayout.JAVA_INT, 24);
            if (memory.byteSize() < bytesFor(ranks, capacity)) {
                throw new IllegalStateException("btl/sm: " + path + " is shorter than its header says");
            }
            return new SmSegment(path, memory, ranks, capacity);
        } catch (NoSuchFileException e) {
            // its owner removes it when it ends before every peer mapped it
            throw new McaException("btl/sm: the peer's shared-memory file " + path + " is gone: the"
                    + " peer ended (or was killed) before this rank reached it", e);
        } catch (IOException e) {
            throw new UncheckedIOException("btl/sm: cannot map the peer's shared-memory file " + path + ": " + e, e);
        }
    }

    /** A peer has mapped the segment; true if it was the last the owner expects. */
    boolean mapped() {
        return (int) COUNT.getAndAdd(memory, MAPPINGS_TO_COME, 1) + 1 == 0;
    }

    /** The owner expects {@code peers} to map the segment; true if all have done so already. */
    boolean expect(int peers) {
        return (int) COUNT.getAndAdd(memory, MAPPINGS_TO_COME, -peers) - peers == 0;
    }

    /** The owner's doorbell, which it waits on. */
    FutexDoorbell ownDoorbell(Arena arena, BooleanSupplier arrivals) {
        return FutexDoorbell.owned(memory, DOORBELL, arena, arrivals);
    }

    /** The owner's doorbell as a peer sees it: to ring. */
    FutexDoorbell peersDoorbell() {
        return FutexDoorbell.peers(memory, DOORBELL);
    }

    /** The ring in which {@code senderRank} writes to this segment's owner. */
    SharedRing ring(int senderRank) {
        return new SharedRing(memory, HEADER + senderRank * SharedRing.bytesFor(ringCapacity), ringCapacity);
    }
}
