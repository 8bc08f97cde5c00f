package org.jmca.rte.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A job's private directory (mode 0700) in {@code /dev/shm} (else the temporary directory),
 * where ranks put files such as shared-memory segments. jmpirun removes it when the job ends,
 * however it ends, so a rank killed with SIGKILL leaves nothing behind.
 */
record SessionDirectory(Path path) {

    static SessionDirectory create(String jobId) {
        Path shm = Path.of("/dev/shm");
        Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            return new SessionDirectory(Files.createDirectory(parent.resolve(jobId),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        } catch (IOException e) {
            throw new UncheckedIOException("jmpirun: cannot create the job's session directory in " + parent, e);
        }
    }

    /** Creates the directory {@code path} (mode 0700): a remote host's, named by jmpirun. */
    static SessionDirectory createAt(Path path) {
        try {
            return new SessionDirectory(Files.createDirectory(path,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the job's session directory " + path, e);
        }
    }

    /** The directory for host {@code host} of the job: beside this one, numbered. */
    Path forHost(int host) {
        return path.resolveSibling(path.getFileName() + ".host" + host);
    }

    /** Removes the directory and everything in it; safe to call more than once. */
    void remove() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    System.err.println("jmpirun: could not remove " + p + ": " + e.getMessage());
                }
            });
        } catch (IOException e) {
            System.err.println("jmpirun: could not remove the session directory " + path + ": " + e.getMessage());
        }
    }
}
