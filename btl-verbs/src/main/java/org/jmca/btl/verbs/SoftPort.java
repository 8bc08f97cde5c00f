package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import org.jmca.btl.base.RingFile;
import org.jmca.btl.base.SharedRing;

/**
 * The shared state of one port of the software verbs device: a {@link RingFile} in the fabric's
 * directory, mapped by its owner and by every port that sends to it. It plays the part of the
 * HCA's memory that the wire and remote requests reach: the table of memory regions, checked by
 * RDMA requests from peers, and one inbound ring per sending port, the wire.
 *
 * <pre>
 *   0 | RingFile's header: magic "JMCA-SV2", owner's pid, ports, ring capacity, open (1 while the port is up)
 *  32 | LID (int) | atomics lock (int: 0 free, 1 held by a requester's read-modify-write) |
 *  40 | group slots in use (int) |
 *  64 | multicast attachments: GROUP_SLOTS x 8 bytes: MLID (int, 0 = free), QP number (int)
 * 576 | memory regions: MR_SLOTS x 32 bytes: rkey (int, 0 = free), access (int), pd (int), -, address (long), length (long)
 *     | rings: one SharedRing per sending LID (1..ports), in LID order, from the next 128 bytes
 * </pre>
 */
final class SoftPort {
    static final int MR_SLOTS = 4096;
    static final int GROUP_SLOTS = 64;
    private static final long MAGIC = 0x4a4d43412d535632L;
    private static final long LID = RingFile.OWN_FIELDS;
    private static final long ATOMICS_LOCK = LID + 4;
    private static final long GROUPS_IN_USE = ATOMICS_LOCK + 4;
    private static final int GROUPS = 64;
    private static final int MR_TABLE = GROUPS + GROUP_SLOTS * 8;
    private static final int MR_ENTRY = 32;
    private static final RingFile.Kind KIND = new RingFile.Kind("verbs soft device", "port file", MAGIC,
            MR_TABLE + (long) MR_SLOTS * MR_ENTRY, RingFile.Creation.NEW);
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    final Path path;
    final int lid;
    final int ports;
    final long pid;
    private final RingFile file;
    private final MemorySegment memory;

    private SoftPort(RingFile file) {
        this.file = file;
        this.memory = file.memory();
        this.path = file.path();
        this.pid = file.ownerPid();
        this.lid = memory.get(ValueLayout.JAVA_INT, LID);
        this.ports = file.rings();
    }

    static Path pathOf(Path fabric, int lid) {
        return fabric.resolve("verbs-soft-port-" + lid);
    }

    /** Creates this process's port, up; fails if the file exists already. */
    static SoftPort create(Path fabric, int lid, int ports, int ringCapacity, Arena arena) {
        return new SoftPort(RingFile.create(pathOf(fabric, lid), KIND, ports, ringCapacity, fresh -> {
            fresh.memory().set(ValueLayout.JAVA_INT, LID, lid);
            fresh.setOpen(true);
        }, arena));
    }

    /** Maps a peer's port, or returns null if it does not exist (yet). */
    static SoftPort open(Path fabric, int lid, Arena arena) {
        RingFile file = RingFile.open(pathOf(fabric, lid), KIND, arena);
        return file == null ? null : new SoftPort(file);
    }

    /** The ring in which the port of {@code senderLid} writes to this port. */
    SharedRing ring(int senderLid) {
        if (senderLid < 1 || senderLid > ports) {
            throw new IllegalArgumentException("LID " + senderLid + " is outside the fabric's 1.." + ports);
        }
        return file.ring(senderLid - 1);
    }

    /** True while the owner has the port up and its process lives (a peer's view of "the link is there"). */
    boolean up() {
        return open() && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * True while the owner has not closed the port: one load, for every RDMA request (asking
     * the kernel whether the process lives took 40 % of a receiver's time in 128 KiB blocks).
     */
    boolean open() {
        return file.isOpen();
    }

    /**
     * Runs a remote atomic against this port's memory under the port's lock, so that atomics
     * from every requester to it are atomic with respect to each other — what
     * {@code IBV_ATOMIC_HCA} promises (not with respect to the owner's CPU).
     */
    long atomically(java.util.function.LongSupplier readModifyWrite) {
        while (!INT.compareAndSet(memory, ATOMICS_LOCK, 0, 1)) {
            Thread.onSpinWait();
        }
        try {
            return readModifyWrite.getAsLong();
        } finally {
            INT.setRelease(memory, ATOMICS_LOCK, 0);
        }
    }

    void markDown() {
        file.setOpen(false);
    }

    /**
     * Attaches a queue pair of this port (the owner's call) to the group of {@code mlid}.
     * Returns false when every slot is taken.
     */
    boolean attach(int mlid, int qpn) {
        int inUse = memory.get(ValueLayout.JAVA_INT, GROUPS_IN_USE);
        int slot = 0;
        while (slot < inUse && (int) INT.getAcquire(memory, GROUPS + 8L * slot) != 0) {
            slot++;
        }
        if (slot == GROUP_SLOTS) {
            return false;
        }
        memory.set(ValueLayout.JAVA_INT, GROUPS + 8L * slot + 4, qpn);
        INT.setRelease(memory, GROUPS + 8L * slot, mlid);
        if (slot == inUse) {
            INT.setRelease(memory, GROUPS_IN_USE, inUse + 1);
        }
        return true;
    }

    void detach(int mlid, int qpn) {
        int inUse = memory.get(ValueLayout.JAVA_INT, GROUPS_IN_USE);
        for (int slot = 0; slot < inUse; slot++) {
            if (memory.get(ValueLayout.JAVA_INT, GROUPS + 8L * slot) == mlid
                    && memory.get(ValueLayout.JAVA_INT, GROUPS + 8L * slot + 4) == qpn) {
                INT.setRelease(memory, GROUPS + 8L * slot, 0);
                return;
            }
        }
    }

    /** Gives the QP number of each queue pair of this port attached to the group of {@code mlid}. */
    void forEachMember(int mlid, java.util.function.IntConsumer qpn) {
        int inUse = (int) INT.getAcquire(memory, GROUPS_IN_USE);
        for (int slot = 0; slot < inUse; slot++) {
            if ((int) INT.getAcquire(memory, GROUPS + 8L * slot) == mlid) {
                qpn.accept(memory.get(ValueLayout.JAVA_INT, GROUPS + 8L * slot + 4));
            }
        }
    }

    void publishRegion(int slot, int rkey, int access, int pd, long address, long length) {
        long at = MR_TABLE + (long) slot * MR_ENTRY;
        memory.set(ValueLayout.JAVA_INT, at + 4, access);
        memory.set(ValueLayout.JAVA_INT, at + 8, pd);
        memory.set(ValueLayout.JAVA_LONG, at + 16, address);
        memory.set(ValueLayout.JAVA_LONG, at + 24, length);
        INT.setRelease(memory, at, rkey);
    }

    void withdrawRegion(int slot) {
        INT.setRelease(memory, MR_TABLE + (long) slot * MR_ENTRY, 0);
    }

    /**
     * Checks a remote request against this port's regions, as the responder's HCA does: the rkey
     * names a live region that allows {@code access} and holds all {@code bytes} at {@code address}.
     */
    boolean allows(int rkey, long address, long bytes, int access) {
        int slot = (rkey & 0xFFFF) - 1;
        if (slot < 0 || slot >= MR_SLOTS) {
            return false;
        }
        long at = MR_TABLE + (long) slot * MR_ENTRY;
        if ((int) INT.getAcquire(memory, at) != rkey) {
            return false;
        }
        long start = memory.get(ValueLayout.JAVA_LONG, at + 16);
        long length = memory.get(ValueLayout.JAVA_LONG, at + 24);
        return (memory.get(ValueLayout.JAVA_INT, at + 4) & access) == access
                && address >= start && bytes >= 0 && bytes <= start + length - address; // no overflow: a length from a peer
    }
}
