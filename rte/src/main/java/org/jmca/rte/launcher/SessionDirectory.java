package org.jmca.rte.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A job's private directory (mode 0700) in {@code /dev/shm} (else the temporary directory),
 * where ranks put files such as shared-memory segments. jmpirun removes it when the job ends,
 * however it ends, so a rank killed with SIGKILL leaves nothing behind. A jmpirun (or host
 * daemon) killed with SIGKILL cannot: for that, a reaper made with the directory, a shell that
 * waits for the end of its standard input (a pipe only this JVM holds, closed by the kernel when
 * the JVM dies however it dies), removes it. Where even that was killed, the next job's jmpirun
 * removes what is left ({@link #removeAbandoned}).
 */
record SessionDirectory(Path path) {
    /**
     * The reaper's script: ignore the signals a terminal sends the whole process group (jmpirun
     * cleans up itself then), wait for end of input, give the ranks that die with jmpirun (their
     * parent-death signal) a moment to go, then remove the directory.
     */
    private static final String REAPER = "trap '' INT TERM HUP QUIT; read _; sleep 1; rm -rf -- \"$0\"";

    private static final Path SETSID = Path.of("/usr/bin/setsid");

    /**
     * The reapers, held so that no garbage collection closes a pipe early; ended at {@link #remove}.
     * (Not the remote hosts' directories in {@link #removeAbandoned}: their name's pid is of
     * another host's jmpirun, which this host cannot see; their daemon's reaper removes them.)
     */
    private static final Map<Path, Process> REAPERS = new ConcurrentHashMap<>();

    /** A job's directory on the host of its jmpirun (processes, or "t" for thread ranks), the jmpirun's pid first. */
    private static final Pattern JOB_DIRECTORY = Pattern.compile("jmca-t?(\\d+)-[0-9a-f]{8}");

    static SessionDirectory create(String jobId) {
        Path shm = Path.of("/dev/shm");
        Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        removeAbandoned(parent);
        try {
            return reaped(Files.createDirectory(parent.resolve(jobId),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        } catch (IOException e) {
            throw new UncheckedIOException("jmpirun: cannot create the job's session directory in " + parent, e);
        }
    }

    /** Creates the directory {@code path} (mode 0700): a remote host's, named by jmpirun. */
    static SessionDirectory createAt(Path path) {
        try {
            return reaped(Files.createDirectory(path,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the job's session directory " + path, e);
        }
    }

    private static SessionDirectory reaped(Path path) throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString()); // a session of its own: a kill of jmpirun's process group spares it
        }
        command.addAll(List.of("/bin/sh", "-c", REAPER, path.toString()));
        Process reaper = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        REAPERS.put(path, reaper);
        return new SessionDirectory(path);
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

    /** Removes the directory and everything in it, then its reaper; safe to call more than once. */
    void remove() {
        try {
            removeFiles();
        } finally {
            Process reaper = REAPERS.remove(path);
            if (reaper != null) {
                reaper.destroyForcibly();
            }
        }
    }

    private void removeFiles() {
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
