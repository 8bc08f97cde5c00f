package org.jmca.btl.base;

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
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A file of {@link SharedRing}s that the processes of one host map: a header, then one ring per
 * sending peer, which the file's owner alone reads. btl/sm's segments, btl/lapi's task files and
 * the ports of the software verbs device and of the emulated GM NIC are each one, of a
 * {@link Kind} that adds header fields of its own after the common ones.
 *
 * <pre>
 *    0 +---------------------------+---------------------------+
 *      | magic (long): the kind, written last                  |
 *    8 | owner's pid (long)                                    |
 *   16 | rings (int)               | ring capacity (int)       |
 *   24 | open (int)                | mappings to come (int)    |
 *   32 +---------------------------+---------------------------+
 *      | the kind's own fields, up to Kind.headerBytes          |  a doorbell, a table of regions...
 *      +-------------------------------------------------------+  rounded up to 128 bytes
 *      | ring 0: SharedRing.bytesFor(ring capacity) bytes       |
 *      | ring 1 ...                                            |
 *      +-------------------------------------------------------+
 * </pre>
 *
 * The owner creates the file (mode 0600), writes the header and its kind's fields, then the
 * magic with a release store: a peer that acquires the magic finds the header whole. Rings start
 * on 128 bytes, the pair of cache lines that {@link SharedRing} keeps its sides apart by.
 *
 * <p>"Open" is 1 while the owner takes packets, for the kinds whose peers must tell a closed port
 * from a full one. "Mappings to come", for the kinds whose owner learns how many peers map the
 * file: each peer adds 1 as it maps it ({@link #mappedByPeer}), the owner subtracts the peers it
 * expects ({@link #expectPeers}); whoever brings it to zero removes the file, which from then on
 * lives only in the mappings, so that nothing is left behind when a process is killed.
 */
public final class RingFile {
    /** Where a kind's own fields start. */
    public static final long OWN_FIELDS = 32;
    /** Rings start on a multiple of this. */
    public static final long RING_ALIGNMENT = 128;
    private static final long MAGIC = 0;
    private static final long PID = 8;
    private static final long RINGS = 16;
    private static final long RING_CAPACITY = 20;
    private static final long OPEN = 24;
    private static final long MAPPINGS_TO_COME = 28;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    /** How {@link #create} puts a new file in its directory. */
    public enum Creation {
        /** Under its name; fails if a file of that name exists. */
        NEW,
        /** Under its name, after removing a file of that name that an earlier run left. */
        REPLACING,
        /**
         * Under a temporary name ({@code name.new}), then renamed over any of its name: a peer
         * that finds the file finds it whole, even while the owner is making it.
         */
        RENAMED
    }

    /**
     * One component's kind of ring file.
     *
     * @param component   names the component in messages: "btl/sm"
     * @param noun        what the file is to it: "shared-memory file"
     * @param magic       the first 8 bytes of every file of the kind
     * @param headerBytes where the kind's own fields end, at least {@link #OWN_FIELDS}
     * @param creation    how the owner puts a new file in its directory
     */
    public record Kind(String component, String noun, long magic, long headerBytes, Creation creation) {
        public Kind {
            if (headerBytes < OWN_FIELDS) {
                throw new IllegalArgumentException("headerBytes=" + headerBytes + " is inside the common header, which"
                        + " ends at " + OWN_FIELDS);
            }
        }

        /** Where ring 0 starts: the header rounded up to {@link #RING_ALIGNMENT}. */
        public long ringsAt() {
            return (headerBytes + RING_ALIGNMENT - 1) & -RING_ALIGNMENT;
        }

        /** Bytes of a file of {@code rings} rings of {@code ringCapacity} bytes each. */
        public long bytesFor(int rings, int ringCapacity) {
            return ringsAt() + rings * SharedRing.bytesFor(ringCapacity);
        }
    }

    private final Path path;
    private final Kind kind;
    private final MemorySegment memory;
    private final long ownerPid;
    private final int rings;
    private final int ringCapacity;

    private RingFile(Path path, Kind kind, MemorySegment memory) {
        this.path = path;
        this.kind = kind;
        this.memory = memory;
        this.ownerPid = memory.get(ValueLayout.JAVA_LONG, PID);
        this.rings = memory.get(ValueLayout.JAVA_INT, RINGS);
        this.ringCapacity = memory.get(ValueLayout.JAVA_INT, RING_CAPACITY);
    }

    /**
     * Creates and maps a file of {@code rings} empty rings, owned by this process.
     *
     * @param ownFields writes the kind's own fields (and opens the file, where the kind opens it
     *                  at once) before the magic is written
     */
    public static RingFile create(Path path, Kind kind, int rings, int ringCapacity, Consumer<RingFile> ownFields,
                                  Arena arena) {
        SharedRing.checkCapacity(ringCapacity);
        Path written = kind.creation() == Creation.RENAMED ? path.resolveSibling(path.getFileName() + ".new") : path;
        try {
            if (kind.creation() == Creation.REPLACING) {
                Files.deleteIfExists(path);
            }
            Files.createFile(written, OWNER_ONLY);
            try (FileChannel channel = FileChannel.open(written, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                long bytes = kind.bytesFor(rings, ringCapacity);
                MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
                memory.set(ValueLayout.JAVA_LONG, PID, ProcessHandle.current().pid());
                memory.set(ValueLayout.JAVA_INT, RINGS, rings);
                memory.set(ValueLayout.JAVA_INT, RING_CAPACITY, ringCapacity);
                RingFile file = new RingFile(path, kind, memory);
                ownFields.accept(file);
                LONG.setRelease(memory, MAGIC, kind.magic());
                if (!written.equals(path)) {
                    Files.move(written, path, StandardCopyOption.ATOMIC_MOVE);
                }
                return file;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(kind.component() + ": cannot create the " + kind.noun() + " " + path + ": "
                    + e, e);
        }
    }

    /**
     * Maps another process's file and checks its header.
     *
     * @return null if there is no such file: not yet, or no longer
     * @throws IllegalStateException if the file is not a whole one of {@code kind}
     */
    public static RingFile open(Path path, Kind kind, Arena arena) {
        MemorySegment memory;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(kind.component() + ": cannot map the " + kind.noun() + " " + path + ": "
                    + e, e);
        }
        String mismatch = check(memory, kind);
        if (mismatch != null) {
            throw new IllegalStateException(kind.component() + ": " + path + " is not a " + kind.noun() + ": "
                    + mismatch);
        }
        return new RingFile(path, kind, memory);
    }

    /** Why {@code memory} is not a whole file of {@code kind}, or null if it is. */
    static String check(MemorySegment memory, Kind kind) {
        if (memory.byteSize() < kind.ringsAt()) {
            return "its " + memory.byteSize() + " bytes are shorter than the header's " + kind.ringsAt();
        }
        long magic = (long) LONG.getAcquire(memory, MAGIC);
        if (magic != kind.magic()) {
            return "magic=0x" + Long.toHexString(magic) + ", expected 0x" + Long.toHexString(kind.magic());
        }
        int rings = memory.get(ValueLayout.JAVA_INT, RINGS);
        int capacity = memory.get(ValueLayout.JAVA_INT, RING_CAPACITY);
        if (capacity < 1024 || capacity > 1 << 30 || Integer.bitCount(capacity) != 1) {
            return "ringCapacity=" + capacity + " is no ring's (a power of two from 1 KiB to 1 GiB)";
        }
        long bytes = kind.bytesFor(rings, capacity);
        if (rings < 0 || memory.byteSize() < bytes) {
            return "rings=" + rings + " of ringCapacity=" + capacity + " need " + bytes + " bytes, it has "
                    + memory.byteSize();
        }
        return null;
    }

    public Path path() {
        return path;
    }

    /** The whole mapping, for the kind's own fields (from {@link #OWN_FIELDS}). */
    public MemorySegment memory() {
        return memory;
    }

    public long ownerPid() {
        return ownerPid;
    }

    public int rings() {
        return rings;
    }

    public int ringCapacity() {
        return ringCapacity;
    }

    /** A view of ring {@code index} (0 ..{@link #rings()} - 1): the owner's to read, one peer's to write. */
    public SharedRing ring(int index) {
        Objects.checkIndex(index, rings);
        return new SharedRing(memory, kind.ringsAt() + index * SharedRing.bytesFor(ringCapacity), ringCapacity);
    }

    /** The owner: whether it takes packets (a release store, so what it set up before is seen first). */
    public void setOpen(boolean open) {
        INT.setRelease(memory, OPEN, open ? 1 : 0);
    }

    /** True while the owner takes packets: one acquire load. */
    public boolean isOpen() {
        return (int) INT.getAcquire(memory, OPEN) == 1;
    }

    /** A peer has mapped the file; true if it was the last the owner expects: the caller then removes the file. */
    public boolean mappedByPeer() {
        return (int) INT.getAndAdd(memory, MAPPINGS_TO_COME, 1) + 1 == 0;
    }

    /**
     * The owner expects {@code peers} to map the file; true if all have done so already: the
     * owner then removes the file.
     */
    public boolean expectPeers(int peers) {
        return (int) INT.getAndAdd(memory, MAPPINGS_TO_COME, -peers) - peers == 0;
    }
}
