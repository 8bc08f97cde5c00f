package org.jmca.rte.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A job's private directory (mode 0700) in {@code /dev/shm} (else the temporary directory),
 * where ranks put files such as shared-memory segments. jmpirun removes it when the job ends,
 * however it ends, so a rank killed with SIGKILL leaves nothing behind; a jmpirun killed with
 * SIGKILL cannot, and the next job's jmpirun removes what it left ({@link #removeAbandoned}).
 */
record SessionDirectory(Path path) {
    /** A job's directory on the host of its jmpirun (processes, or "t" for thread ranks), the jmpirun's pid first. */
    private static final Pattern JOB_DIRECTORY = Pattern.compile("jmca-t?(\\d+)-[0-9a-f]{8}");

    static SessionDirectory create(String jobId) {
        Path shm = Path.of("/dev/shm");
        Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        removeAbandoned(parent);
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

    /**
     * Removes this user's job directories in {@code parent} whose jmpirun no longer runs. A
     * directory whose pid names a live process stays, whatever that process is.
     */
    static void removeAbandoned(Path parent) {
        try (Stream<Path> entries = Files.list(parent)) {
            String me = System.getProperty("user.name");
            entries.filter(Files::isDirectory).forEach(dir -> {
                Matcher job = JOB_DIRECTORY.matcher(dir.getFileName().toString());
                try {
                    if (job.matches() && ProcessHandle.of(Long.parseLong(job.group(1))).isEmpty()
                            && Files.getOwner(dir).getName().equals(me)) {
                        new SessionDirectory(dir).remove();
                    }
                } catch (IOException | NumberFormatException e) {
                    // another user's, or gone meanwhile: not ours to remove
                }
            });
        } catch (IOException e) {
            // nothing to clean where nothing can be listed
        }
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
