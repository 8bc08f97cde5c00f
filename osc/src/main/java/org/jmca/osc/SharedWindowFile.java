package org.jmca.osc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file behind a shared window's memory when its ranks are processes of one host: made by
 * one rank, mapped by every rank, removed once all have mapped it (the mappings outlive it).
 * Each rank's part lies in rank order, contiguous, as {@code MPI_Win_allocate_shared} lays it
 * out by default.
 */
public final class SharedWindowFile {
    private SharedWindowFile() {
    }

    /** A new file of {@code bytes} in {@code directory}, with a name no other window has. */
    public static Path create(Path directory, long bytes) throws IOException {
        Path file = Files.createTempFile(directory, "window-", ".shm");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (bytes > 0) {
                // sized by writing its last byte, so every page exists before anyone maps it
                channel.write(java.nio.ByteBuffer.wrap(new byte[1]), bytes - 1);
            }
        }
        return file;
    }

    /** {@code file}'s {@code bytes}, mapped read-write for as long as {@code arena} is open. */
    public static MemorySegment map(Path file, long bytes, Arena arena) throws IOException {
        if (bytes == 0) {
            return arena.allocate(0);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() < bytes) {
                throw new IOException(file + " holds " + channel.size() + " bytes, not the window's " + bytes);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
    }
}
