package org.jmca.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The shared file pointer of an open file: one long (in etypes of the view) in a small file next
 * to it, which every process of the group updates under an exclusive lock, so that it works
 * between processes on one host and on a shared file system alike. The pointer file is made at
 * the first use: a file only ever read through explicit offsets needs none.
 */
public final class SharedFilePointer implements AutoCloseable {
    private final Path path;
    private final ByteBuffer value = ByteBuffer.allocate(Long.BYTES);
    private FileChannel channel;

    /** The pointer of {@code file} under this open's {@code id} (every process of the open passes the same). */
    public SharedFilePointer(Path file, long id) {
        this.path = file.resolveSibling("." + file.getFileName() + ".jmca-shared-pointer-" + Long.toHexString(id));
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }

    /** The pointer file's lock, which thread ranks of one JVM take in turn as processes do. */
    private FileAccess.HeldLock lock(boolean shared) throws IOException {
        return FileAccess.lock(path, channel(), 0, Long.MAX_VALUE, shared);
    }

    /** Adds {@code delta} and returns the value before, atomically between processes. */
    public long fetchAdd(long delta) throws IOException {
        try (FileAccess.HeldLock lock = lock(false)) {
            long before = read();
            write(before + delta);
            return before;
        }
    }

    public long get() throws IOException {
        try (FileAccess.HeldLock lock = lock(true)) {
            return read();
        }
    }

    public void set(long position) throws IOException {
        try (FileAccess.HeldLock lock = lock(false)) {
            write(position);
        }
    }

    /** Sets the pointer to 0 if some process has used it (a new view); no process may be using it meanwhile. */
    public void resetIfUsed() throws IOException {
        if (channel != null || Files.exists(path)) {
            set(0);
        }
    }

    private long read() throws IOException {
        value.clear();
        while (value.hasRemaining() && channel.read(value, value.position()) > 0) {
            // a file shorter than 8 bytes is a pointer at 0
        }
        return value.position() < Long.BYTES ? 0 : value.getLong(0);
    }

    private void write(long position) throws IOException {
        value.clear();
        value.putLong(0, position);
        while (value.hasRemaining()) {
            channel.write(value, value.position());
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }

    /** Removes the pointer file: the last step of the collective close. */
    public void delete() throws IOException {
        Files.deleteIfExists(path);
    }
}
