package org.jmca.btl.lapi;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.RingFile;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.LapiException;

/**
 * One task's inbound side of the emulated switch: a {@link RingFile} in the job's fabric
 * directory, mapped by the task and by every task of its host, with one {@link SharedRing} per
 * sending task. A task on this host writes its packets into its ring here; packets from tasks on
 * other hosts are written there by this task's wire agent.
 *
 * <pre>
 *   0 | RingFile's header: magic "JMCALAP1", owner's pid, tasks, ring capacity, open (1 while the owner takes packets)
 *  64 | doorbell                    FutexDoorbell: the notification thread sleeps on it
 * 128 | ring of task 0, ring of task 1, ...   SharedRing.bytesFor(capacity) each
 * </pre>
 */
final class TaskFile {
    private static final long MAGIC = 0x4a4d43414c415031L;
    private static final long DOORBELL = 64;
    /** A file an earlier run left under the name is replaced. */
    private static final RingFile.Kind KIND = new RingFile.Kind("btl/lapi", "task file", MAGIC,
            DOORBELL + FutexDoorbell.BYTES, RingFile.Creation.REPLACING);

    final Path path;
    final int tasks;
    final long ownerPid;
    private final RingFile file;

    private TaskFile(RingFile file) {
        this.file = file;
        this.path = file.path();
        this.tasks = file.rings();
        this.ownerPid = file.ownerPid();
    }

    static Path pathOf(Path fabric, int task) {
        return fabric.resolve("lapi-task-" + task);
    }

    /** Creates and maps task {@code task}'s file; an old one of the same name is replaced. */
    static TaskFile create(Path fabric, int task, int tasks, int ringCapacity, Arena arena) {
        return new TaskFile(RingFile.create(pathOf(fabric, task), KIND, tasks, ringCapacity, fresh -> { }, arena));
    }

    /** Maps another task's file and checks its header. */
    static TaskFile open(Path fabric, int task, int tasks, Arena arena) {
        Path path = pathOf(fabric, task);
        RingFile file;
        try {
            file = RingFile.open(path, KIND, arena);
        } catch (IllegalStateException e) {
            throw new LapiException(e.getMessage());
        }
        if (file == null) {
            throw new LapiException("btl/lapi: task " + task + "'s file " + path + " is gone: the task ended (or was"
                    + " killed) before this one reached it");
        }
        if (file.rings() != tasks) {
            throw new LapiException("btl/lapi: " + path + " is not the task file of task " + task + " of " + tasks
                    + ": it has rings for " + file.rings() + " tasks");
        }
        return new TaskFile(file);
    }

    /** The ring in which task {@code sender} writes to this file's owner. */
    SharedRing ring(int sender) {
        return file.ring(sender);
    }

    /** The owner's doorbell, which its notification thread waits on; {@code arrivals} checks its rings. */
    FutexDoorbell ownDoorbell(Arena arena, BooleanSupplier arrivals) {
        return FutexDoorbell.owned(file.memory(), DOORBELL, arena, arrivals);
    }

    /** The owner's doorbell as a sender sees it: to ring. */
    FutexDoorbell sendersDoorbell() {
        return FutexDoorbell.peers(file.memory(), DOORBELL);
    }

    void setOpen(boolean open) {
        file.setOpen(open);
    }

    boolean isOpen() {
        return file.isOpen();
    }
}
