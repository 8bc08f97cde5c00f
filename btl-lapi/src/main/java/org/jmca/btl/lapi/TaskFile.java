package org.jmca.btl.lapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.LapiException;

/**
 * One task's inbound side of the emulated switch: a file (mode 0600) in the job's fabric
 * directory, mapped by the task and by every task of its host, with one {@link SharedRing} per
 * sending task. A task on this host writes its packets into its ring here; packets from tasks on
 * other hosts are written there by this task's wire agent.
 *
 * <pre>
 *   0 | magic "JMCALAP1"    (long)
 *   8 | tasks               (int)
 *  12 | ring capacity       (int)
 *  16 | owner's pid         (long)
 *  24 | open                (int)   1 while the owner takes packets
 *  64 | doorbell                    FutexDoorbell: the notification thread sleeps on it
 * 128 | ring of task 0, ring of task 1, ...   SharedRing.bytesFor(capacity) each
 * </pre>
 */
final class TaskFile {
    private static final long MAGIC = 0x4a4d43414c415031L;
    private static final long OPEN = 24;
    private static final long DOORBELL = 64;
    private static final int HEADER = 128;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    final Path path;
    final int tasks;
    final int ringCapacity;
    final long ownerPid;
    private final MemorySegment memory;

    private TaskFile(Path path, MemorySegment memory) {
        this.path = path;
        this.memory = memory;
        this.tasks = memory.get(ValueLayout.JAVA_INT, 8);
        this.ringCapacity = memory.get(ValueLayout.JAVA_INT, 12);
        this.ownerPid = memory.get(ValueLayout.JAVA_LONG, 16);
    }

    static Path pathOf(Path fabric, int task) {
        return fabric.resolve("lapi-task-" + task);
    }

    private static long bytesFor(int tasks, int ringCapacity) {
        return HEADER + tasks * SharedRing.bytesFor(ringCapacity);
    }

    /** Creates and maps task {@code task}'s file; an old one of the same name is replaced. */
    static TaskFile create(Path fabric, int task, int tasks, int ringCapacity, Arena arena) {
        SharedRing.checkCapacity(ringCapacity);
        Path path = pathOf(fabric, task);
        try {
            Files.deleteIfExists(path);
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytesFor(tasks, ringCapacity), arena);
                memory.set(ValueLayout.JAVA_INT, 8, tasks);
                memory.set(ValueLayout.JAVA_INT, 12, ringCapacity);
                memory.set(ValueLayout.JAVA_LONG, 16, ProcessHandle.current().pid());
                memory.set(ValueLayout.JAVA_LONG, 0, MAGIC);
                return new TaskFile(path, memory);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("btl/lapi: cannot create the task file " + path + ": " + e, e);
        }
    }

    /** Maps another task's file and checks its header. */
    static TaskFile open(Path fabric, int task, int tasks, Arena arena) {
        Path path = pathOf(fabric, task);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            if (memory.byteSize() < HEADER || memory.get(ValueLayout.JAVA_LONG, 0) != MAGIC
                    || memory.get(ValueLayout.JAVA_INT, 8) != tasks
                    || memory.byteSize() < bytesFor(tasks, memory.get(ValueLayout.JAVA_INT, 12))) {
                throw new LapiException("btl/lapi: " + path + " is not the task file of task " + task + " of " + tasks);
            }
            return new TaskFile(path, memory);
        } catch (IOException e) {
            throw new UncheckedIOException("btl/lapi: cannot map task " + task + "'s file " + path + ": " + e, e);
        }
    }

    /** The ring in which task {@code sender} writes to this file's owner. */
    SharedRing ring(int sender) {
        return new SharedRing(memory, HEADER + sender * SharedRing.bytesFor(ringCapacity), ringCapacity);
    }

    /** The owner's doorbell, which its notification thread waits on; {@code arrivals} checks its rings. */
    FutexDoorbell ownDoorbell(Arena arena, BooleanSupplier arrivals) {
        return FutexDoorbell.owned(memory, DOORBELL, arena, arrivals);
    }

    /** The owner's doorbell as a sender sees it: to ring. */
    FutexDoorbell sendersDoorbell() {
        return FutexDoorbell.peers(memory, DOORBELL);
    }

    void setOpen(boolean open) {
        INT.setRelease(memory, OPEN, open ? 1 : 0);
    }

    boolean isOpen() {
        return (int) INT.getAcquire(memory, OPEN) == 1;
    }
}
