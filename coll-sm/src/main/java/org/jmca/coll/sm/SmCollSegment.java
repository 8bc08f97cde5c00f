package org.jmca.coll.sm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The memory one communicator's ranks share, and how they come to share it.
 *
 * <p>Processes: rank 0 creates a file (mode 0600) in the job's session directory, maps it and
 * tells the others by a message on the communicator's collective context; each maps it, and the
 * last to do so removes the file, so that from then on it lives only in the mappings and nothing
 * is left in /dev/shm whatever happens to the job. Thread ranks of one JVM: the first to arrive
 * allocates native memory in the job's shared map, the last to arrive takes it out of the map, and
 * the last to free the communicator frees the memory.
 */
abstract sealed class SmCollSegment {
    /** The tag of the message that tells the ranks the file is ready; calls' tags start at -1000. */
    static final int SETUP_TAG = -900;

    final MemorySegment memory;

    private SmCollSegment(MemorySegment memory) {
        this.memory = memory;
    }

    /** Stops using the memory (the communicator is freed). */
    abstract void release();

    /**
     * The segment of {@code comm}, whose ranks all run on this host, for the {@code generation}-th
     * communicator with its context and first rank that this rank has made.
     */
    static SmCollSegment attach(CollCommunicator comm, SmCollLayout layout, Path directory, int generation) {
        String key = comm.jobId() + ".collsm." + comm.contextId() + "." + comm.jobRank(0) + "." + generation;
        ConcurrentMap<String, Object> threadJob = comm.threadJob();
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
                return comm.rank() == 0 ? create(comm, layout, file, arena) : open(comm, layout, file, arena);
            } catch (RuntimeException e) {
                arena.close();
                throw e;
            }
        }

        private static Processes create(CollCommunicator comm, SmCollLayout layout, Path file, Arena arena) {
            MemorySegment memory;
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.bytes(), arena);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("coll/sm: cannot create the shared-memory file " + file + " for "
                        + comm.name() + ": " + e, e);
            }
            layout.writeHeader(memory, comm.size() - 1);
            MemorySegment note = arena.allocate(ValueLayout.JAVA_LONG);
            note.set(ValueLayout.JAVA_LONG, 0, layout.bytes());
            PmlRequest[] sends = new PmlRequest[comm.size() - 1];
            for (int r = 1; r < comm.size(); r++) {
                sends[r - 1] = comm.isend(note, r, SETUP_TAG);
            }
            await(comm, () -> {
                for (PmlRequest send : sends) {
                    if (!send.isComplete()) {
                        return false;
                    }
                }
                return true;
            });
            return new Processes(arena, memory);
        }

        private static Processes open(CollCommunicator comm, SmCollLayout layout, Path file, Arena arena) {
            MemorySegment note = arena.allocate(ValueLayout.JAVA_LONG);
            PmlRequest ready = comm.irecv(note, 0, SETUP_TAG);
            await(comm, ready::isComplete);
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
            return new Processes(arena, memory);
        }

        private static void await(CollCommunicator comm, java.util.function.BooleanSupplier done) {
            ProgressEngine progress = comm.progressEngine();
            if (progress == null) {
                throw new IllegalStateException("coll/sm: " + comm.name() + " has no progress engine to set up with");
            }
            progress.waitUntil(done);
        }

        @Override
        void release() {
            arena.close();
        }
    }
}
