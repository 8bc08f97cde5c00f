package org.jmca.btl.sm;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.RingFile;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.McaException;

/**
 * One rank's receive segment: a {@link RingFile} holding one {@link SharedRing} per sending rank,
 * with btl/sm's fields after the common header.
 *
 * <pre>
 *   0 | RingFile's header: magic "JMCA-SM1", owner's pid, ranks, ring capacity, -, mappings to come
 *  32 | layout version     (int) |
 *  64 | doorbell                 |  FutexDoorbell, on a cache line of its own
 * 128 | ring of sender 0         |  each SharedRing.bytesFor(capacity) bytes
 *     | ring of sender 1 ...     |
 * </pre>
 *
 * The owner creates it before the address exchange; peers map it after, and check the header.
 * Whoever brings "mappings to come" to zero — the owner once its peers are known, or the last
 * peer to map it — removes the file: from then on it lives only in the mappings, so that nothing
 * is left in /dev/shm when a rank is killed, whatever launcher started the job.
 */
final class SmSegment {
    private static final long MAGIC = 0x4a4d43412d534d31L;
    private static final int VERSION = 3;
    private static final long VERSION_AT = RingFile.OWN_FIELDS;
    private static final long DOORBELL = 64;
    private static final RingFile.Kind KIND = new RingFile.Kind("btl/sm", "shared-memory file", MAGIC,
            DOORBELL + FutexDoorbell.BYTES, RingFile.Creation.NEW);

    final Path path;
    final long ownerPid;
    private final RingFile file;

    private SmSegment(RingFile file) {
        this.file = file;
        this.path = file.path();
        this.ownerPid = file.ownerPid();
    }

    /** Creates and maps a new segment file; fails if the file exists already. */
    static SmSegment create(Path path, int ranks, int ringCapacity, Arena arena) {
        return new SmSegment(RingFile.create(path, KIND, ranks, ringCapacity,
                fresh -> {
                    fresh.memory().set(ValueLayout.JAVA_INT, VERSION_AT, VERSION);
                    fresh.setOpen(true);
                }, arena));
    }

    /** Maps a peer's segment and checks its header. */
    static SmSegment open(Path path, Arena arena) {
        RingFile file = RingFile.open(path, KIND, arena);
        if (file == null) {
            // its owner removes it when it ends before every peer mapped it
            throw new McaException("btl/sm: the peer's shared-memory file " + path + " is gone: the"
                    + " peer ended (or was killed) before this rank reached it");
        }
        int version = file.memory().get(ValueLayout.JAVA_INT, VERSION_AT);
        if (version != VERSION) {
            throw new IllegalStateException("btl/sm: " + path + " is a shared-memory file of layout version " + version
                    + ", this rank's is " + VERSION + " (is every rank running the same JMCA?)");
        }
        return new SmSegment(file);
    }

    /** A peer has mapped the segment; true if it was the last the owner expects. */
    boolean mapped() {
        return file.mappedByPeer();
    }

    /** The owner expects {@code peers} to map the segment; true if all have done so already. */
    boolean expect(int peers) {
        return file.expectPeers(peers);
    }

    /** Whether the owner still takes messages: false once it finalized. */
    boolean isOpen() {
        return file.isOpen();
    }

    /** Said by the owner when it finalizes, so that a peer whose ring stays full learns it never will drain. */
    void close() {
        file.setOpen(false);
    }

    /** The owner's doorbell, which it waits on. */
    FutexDoorbell ownDoorbell(Arena arena, BooleanSupplier arrivals) {
        return FutexDoorbell.owned(file.memory(), DOORBELL, arena, arrivals);
    }

    /** The owner's doorbell as a peer sees it: to ring. */
    FutexDoorbell peersDoorbell() {
        return FutexDoorbell.peers(file.memory(), DOORBELL);
    }

    /** The ring in which {@code senderRank} writes to this segment's owner. */
    SharedRing ring(int senderRank) {
        return file.ring(senderRank);
    }
}
