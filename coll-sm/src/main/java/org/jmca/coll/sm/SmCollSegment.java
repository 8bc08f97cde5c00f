package org.jmca.coll.sm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The memory one communicator's ranks share, and how they come to share it, without a message:
 * the name comes from the communicator's context and members, the same at every rank.
 *
 * <p>Processes: rank 0 creates a file (mode 0600) in the job's session directory under a
 * temporary name, maps it, writes its header and renames it; the others wait (progressing) until
 * the name appears and map it, and the last to do so removes the file, so that from then on it
 * lives only in the mappings. A job killed before that leaves the file: in a session directory
 * its launcher removes it; in the shared directory, {@link AbandonedSegments} does. Thread
 * ranks of one JVM: the first to arrive allocates native memory in the job's shared map, the last
 * to arrive takes it out of the map, and the last to free the communicator frees the memory.
 *
 * <p>A communicator freed and made again with the same context and members gets the same name;
 * by then the first one's file is gone (every member mapped it before it could free it).
 */
abstract sealed class SmCollSegment {
    final MemorySegment memory;

    private SmCollSegment(MemorySegment memory) {
        this.memory = memory;
    }

    /** Stops using the memory (the communicator is freed). */
    abstract void release();

    /** The segment of {@code comm}, whose ranks all run on this host and belong to one job. */
    static SmCollSegment attach(CollCommunicator comm, SmCollLayout layout, Path directory) {
        long members = 0xcbf29ce484222325L; // FNV-1a over the job ranks
        for (int r = 0; r < comm.size(); r++) {
            members = (members ^ comm.jobRank(r)) * 0x100000001b3L;
        }
        String key = comm.jobId() + ".collsm." + comm.contextId() + "." + Long.toHexString(members);
        ConcurrentMap<String, Object> threadJob = comm.threadJob();
        if (threadJob == null && comm.sessionDirectory() == null && comm.rank() == 0) {
            // the shared directory: no launcher removes there what a killed job left
            AbandonedSegments.remove(directory);
        }
        return threadJob != null ? Threads.attach(threadJob, key, layout)
                : Processes.attach(comm, layout, directory.resolve(key));
    }

    /** Native memory that the thread ranks of one JVM share. */
    static final class Threads extends SmCollSegment {
        private final Arena arena;
        private final AtomicInteger arrived = new AtomicInteger();
        private final AtomicInteger users;

        private Threads(Arena arena, SmCollLayout layout) {
            super(arena.allocate(layout.bytes(), SmCollLayout.BLOCK));
            this.arena = arena;
            this.users = new AtomicInteger(layout.ranks);
        }

        static Threads attach(ConcurrentMap<String, Object> threadJob, String key, SmCollLayout layout) {
            Threads shared = (Threads) threadJob.computeIfAbsent(key, k -> new Threads(Arena.ofShared(), layout));
            if (shared.arrived.incrementAndGet() == layout.ranks) {
                threadJob.remove(key);
            }
            return shared;
        }

        @Override
        void release() {
            if (users.decrementAndGet() == 0) {
                arena.close();
            }
        }
    }

    /** A file every process of the communicator maps. */
    static final class Processes extends SmCollSegment {
        private final Arena arena;

        private Processes(Arena arena, MemorySegment memory) {
            super(memory);
            this.arena = arena;
        }

        static Processes attach(CollCommunicator comm, SmCollLayout layout, Path file) {
            Arena arena = Arena.ofShared();
            try {
                return new Processes(arena, comm.rank() == 0 ? create(comm, layout, file, arena)
                        : open(comm, layout, file, arena));
            } catch (RuntimeException e) {
                arena.close();
                throw e;
            }
        }

        private static MemorySegment create(CollCommunicator comm, SmCollLayout layout, Path file, Arena arena) {
            Path temporary = file.resolveSibling(file.getFileName() + ".new");
            try {
                Files.createFile(temporary,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                MemorySegment memory;
                try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
                    memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.bytes(), arena);
                }
                layout.writeHeader(memory, comm.size() - 1);
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
                return memory;
            } catch (IOException e) {
                throw new UncheckedIOException("coll/sm: cannot create the shared-memory file " + file + " for "
                        + comm.name() + ": " + e, e);
            }
        }

        private static MemorySegment open(CollCommunicator comm, SmCollLayout layout, Path file, Arena arena) {
            await(comm, () -> Files.exists(file));
            MemorySegment memory;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            } catch (IOException e) {
                throw new UncheckedIOException("coll/sm: cannot map " + file + ", made by rank 0 of " + comm.name()
                        + ": " + e, e);
            }
            String mismatch = layout.mismatch(memory);
            if (mismatch != null) {
                throw new McaException("coll/sm: " + file + " (made by rank 0 of " + comm.name() + ") is " + mismatch);
            }
            if (SmCollLayout.mapped(memory)) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    System.err.println("jmca: coll/sm: could not remove " + file + ": " + e.getMessage());
                }
            }
            return memory;
        }

        /** Waits for rank 0's file, progressing meanwhile: the job's other traffic must go on. */
        private static void await(CollCommunicator comm, BooleanSupplier done) {
            ProgressEngine progress = comm.progressEngine();
            progress.enter(); // own progress while waiting, even where the caller has not entered the library
            try {
                progress.waitUntil(done);
            } finally {
                progress.exit();
            }
        }

        @Override
        void release() {
            arena.close();
        }
    }
}
