package org.jmca.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What MPI-IO's open reads before it touches a file: the access mode's bits (MPI.MODE_*, these
 * values), ROMIO's hints JMCA takes, and an I/O failure as its MPI error class.
 */
public final class FileAccess {
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;

    /** ROMIO's hint for the number of aggregators of collective accesses. */
    public static final String AGGREGATORS_HINT = "cb_nodes";

    private FileAccess() {
    }

    /**
     * In-JVM locks in front of the file locks, by file (striped). Java holds file locks per JVM,
     * not per thread: while one channel of a file holds a lock, another channel's overlapping
     * {@link FileChannel#lock} throws OverlappingFileLockException instead of waiting. Thread ranks
     * (and threads of one process) are one JVM, so they first wait here for each other, then the
     * file lock keeps other processes out.
     */
    private static final ReentrantLock[] IN_JVM = new ReentrantLock[64];

    static {
        for (int i = 0; i < IN_JVM.length; i++) {
            IN_JVM[i] = new ReentrantLock();
        }
    }

    /** A file lock and the in-JVM lock taken before it; closing releases both. */
    public record HeldLock(ReentrantLock inJvm, FileLock file) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                file.close();
            } finally {
                inJvm.unlock();
            }
        }
    }

    /**
     * Locks bytes {@code position} to {@code position + size} of {@code file} through {@code
     * channel}, one of its channels, waiting for the other threads of this JVM that lock the same
     * file as well as for other processes.
     */
    public static HeldLock lock(Path file, FileChannel channel, long position, long size, boolean shared)
            throws IOException {
        ReentrantLock inJvm = IN_JVM[Math.floorMod(file.toAbsolutePath().normalize().hashCode(), IN_JVM.length)];
        inJvm.lock();
        try {
            return new HeldLock(inJvm, channel.lock(position, size, shared));
        } catch (IOException | RuntimeException | Error e) {
            inJvm.unlock();
            throw e;
        }
    }

    /** {@code amode} if MPI allows it; MPI_ERR_AMODE saying why not. */
    public static int checkAmode(int amode) {
        int access = amode & (MODE_RDONLY | MODE_WRONLY | MODE_RDWR);
        String wrong = null;
        if (Integer.bitCount(access) != 1) {
            wrong = "it needs exactly one of MPI.MODE_RDONLY, MPI.MODE_WRONLY and MPI.MODE_RDWR";
        } else if (access == MODE_RDONLY && (amode & (MODE_CREATE | MODE_EXCL)) != 0) {
            wrong = "MPI.MODE_RDONLY does not go with MPI.MODE_CREATE or MPI.MODE_EXCL";
        } else if (access == MODE_RDWR && (amode & MODE_SEQUENTIAL) != 0) {
            wrong = "MPI.MODE_RDWR does not go with MPI.MODE_SEQUENTIAL";
        }
        if (wrong != null) {
            throw new MpiError(ErrorClass.AMODE, "access mode " + amode + ": " + wrong);
        }
        return amode;
    }

    /** How a channel of a file opened with {@code amode} opens. */
    public static Set<OpenOption> openOptions(int amode) {
        Set<OpenOption> options = new HashSet<>();
        if ((amode & (MODE_RDONLY | MODE_RDWR)) != 0) {
            options.add(StandardOpenOption.READ);
        }
        if ((amode & (MODE_WRONLY | MODE_RDWR)) != 0) {
            options.add(StandardOpenOption.WRITE);
        }
        return options;
    }

    /** How many processes of {@code size} aggregate collective accesses: the hint cb_nodes, else all. */
    public static int aggregators(Map<String, String> hints, int size) {
        String hint = hints.get(AGGREGATORS_HINT);
        if (hint == null) {
            return size;
        }
        try {
            int n = Integer.parseInt(hint.trim());
            if (n >= 1) {
                return Math.min(n, size);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MpiError(ErrorClass.INFO_VALUE, "info " + AGGREGATORS_HINT + "=" + hint + " is not a positive"
                + " number of aggregators");
    }

    /** ROMIO's hint for collective buffering ({@code hint}: romio_cb_write or romio_cb_read), automatic by default. */
    public static TwoPhaseIo.Buffering buffering(Map<String, String> hints, String hint) {
        String value = hints.getOrDefault(hint, "automatic");
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "enable" -> TwoPhaseIo.Buffering.ENABLE;
            case "disable" -> TwoPhaseIo.Buffering.DISABLE;
            case "automatic" -> TwoPhaseIo.Buffering.AUTOMATIC;
            default -> throw new MpiError(ErrorClass.INFO_VALUE, "info " + hint + "=" + value + " is none of enable,"
                    + " disable and automatic");
        };
    }

    /** {@code e} as the MPI error class it is, with {@code what} was being done. */
    public static MpiError ioError(IOException e, String what) {
        return switch (e) {
            case NoSuchFileException n -> new MpiError(ErrorClass.NO_SUCH_FILE, "no such file: " + e.getMessage());
            case FileAlreadyExistsException x -> new MpiError(ErrorClass.FILE_EXISTS, e.getMessage()
                    + " exists (MPI.MODE_EXCL)");
            case AccessDeniedException a -> new MpiError(ErrorClass.ACCESS, "permission denied: " + e.getMessage());
            default -> new MpiError(ErrorClass.IO, what + " " + e.getMessage());
        };
    }
}
