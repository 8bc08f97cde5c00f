package org.jmca.runtime;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jmca.rte.launcher.JmpiRun;
import org.jmca.rte.launcher.Launcher;
import org.jmca.rte.launcher.SpawnLine;

/**
 * {@code mpi.Intracomm.spawn}: the root opens a port and starts jmpirun (from JMCA's jars) with the
 * program as a {@code java} command line names it ({@link SpawnLine}), telling the new job the
 * port in {@value #PARENT_PORT}; the new job's MPI.Init connects to it ({@link
 * #connectToParent}), which is the accept's other side.
 */
public final class Spawning {
    /** The environment variable that tells a spawned job where its parent accepts. */
    public static final String PARENT_PORT = "JMCA_PARENT_PORT";
    /** The spawned jobs' launchers, stopped if they outlive this process. */
    private static final List<Process> CHILDREN = new ArrayList<>();
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    /**
     * The thread that starts spawned jobs: a parent-death signal is sent when the thread that made
     * the process ends, so that thread must live as long as this process, whichever thread spawns.
     */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("jmca-spawner").factory());
    /** Set once this process stops its children: their ends are no failure then. */
    private static volatile boolean ending;

    private Spawning() {
    }

    /** What a spawn made: the intercommunicator to the children, and how many they are. */
    public record Spawned(DynamicProcesses.Connected children, int processes) {
    }

    /** A spawned job's connection to its parent, made in MPI.Init over {@code world}. */
    public static DynamicProcesses.Connected connectToParent(JobRuntime rt, Communicator world, String port) {
        return DynamicProcesses.connect(rt, world, port, 0);
    }

    /**
     * Starts the programs and accepts their connection. Collective over {@code comm}.
     *
     * @param wdir the children's working directory (the info key "wdir"), or null for this process's
     */
    public static Spawned spawn(JobRuntime rt, Communicator comm, String[] commands, String[][] argv, int[] maxprocs,
                                String wdir, int root) {
        String port = null;
        Process process = null;
        try {
            // the root starts the job; every process learns whether it could, and how many, before the accept
            MpiError failure = null;
            int total = 0;
            if (comm.rank == root) {
                try {
                    List<String> line = SpawnLine.jmpirunArguments(commands, argv, maxprocs, parentClassPath());
                    total = Arrays.stream(maxprocs).sum();
                    port = DynamicProcesses.openPort(rt);
                    process = start(line, workingDirectory(wdir), port);
                } catch (IllegalArgumentException e) {
                    failure = new MpiError(ErrorClass.SPAWN, e.getMessage());
                } catch (MpiError e) {
                    failure = e;
                }
            }
            int[] told = InternalCollectives.bcast(comm, comm.rank == root
                    ? new int[] {failure == null ? 0 : failure.errorClass(), total} : null, root, 2);
            if (told[0] != 0) {
                throw failure != null ? failure : new MpiError(told[0], "the root, rank " + root + " of " + comm
                        + ", could not start the job (it reports why)");
            }
            Process started = process;
            DynamicProcesses.Connected children = DynamicProcesses.accept(rt, comm, port, root, started == null ? null
                    : () -> started.isAlive() ? null : "the spawned job ended (status " + started.exitValue()
                    + ") before it connected: see its output above");
            if (started != null) {
                abortIfItFails(rt, started);
            }
            return new Spawned(children, told[1]);
        } finally {
            if (port != null) {
                DynamicProcesses.closePort(port);
            }
        }
    }

    /**
     * The class path a rank of this job runs with, which a spawned program without "-cp" gets:
     * the JVM's, and a thread rank's own class loader's.
     */
    private static String parentClassPath() {
        Set<String> entries = new LinkedHashSet<>();
        List<URL> loaderPath = new ArrayList<>();
        for (ClassLoader l = Thread.currentThread().getContextClassLoader(); l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader urls) {
                loaderPath.addAll(0, Arrays.asList(urls.getURLs()));
            }
        }
        for (URL url : loaderPath) {
            try {
                entries.add(Path.of(url.toURI()).toString());
            } catch (java.net.URISyntaxException | RuntimeException e) {
                // not a file: nothing a child JVM could read
            }
        }
        entries.addAll(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
        return String.join(File.pathSeparator, entries);
    }

    /** The directory the info key "wdir" names, checked; null (this process's) without one. */
    private static Path workingDirectory(String wdir) {
        if (wdir == null) {
            return null;
        }
        Path dir = Path.of(wdir);
        if (!Files.isDirectory(dir)) {
            throw new MpiError(ErrorClass.SPAWN, "the info key wdir names " + wdir + ", which is no directory");
        }
        return dir;
    }

    private static Process start(List<String> jmpirunArguments, Path directory, String port) {
        Path lib = launcherLib();
        List<String> line = new ArrayList<>();
        if (Files.isExecutable(SETPRIV)) {
            // the spawned jmpirun dies with this process however it dies (its own ranks die with it)
            line.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
        }
        line.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djmca.lib=" + lib, "-cp", lib.resolve("*").toString(),
                JmpiRun.class.getName(), "-x", PARENT_PORT));
        line.addAll(jmpirunArguments);
        ProcessBuilder builder = new ProcessBuilder(line).inheritIO();
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().put(PARENT_PORT, port);
        try {
            Process process = SPAWNER.submit(builder::start).get();
            synchronized (CHILDREN) {
                if (CHILDREN.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(Spawning::stopChildren, "jmca-spawned-jobs"));
                }
                CHILDREN.add(process);
            }
            return process;
        } catch (ExecutionException e) {
            throw new MpiError(ErrorClass.SPAWN, "cannot start jmpirun from " + lib + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(ErrorClass.SPAWN, "interrupted while starting jmpirun");
        }
    }

    /** JMCA's jars: where jmpirun said (JMCA_LIB), else beside the jar this class came from. */
    private static Path launcherLib() {
        String lib = System.getenv(Launcher.ENV_LIB);
        if (lib != null && !lib.isEmpty()) {
            return Path.of(lib);
        }
        try {
            Path jar = Path.of(Spawning.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(jar)) {
                return jar.getParent();
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // reported below
        }
        throw new MpiError(ErrorClass.SPAWN, "cannot find JMCA's jars to start jmpirun: " + Launcher.ENV_LIB
                + " is not set (jmpirun sets it for its ranks)");
    }

    /**
     * Waits until the jobs this process spawned have ended (MPI.Finalize), as Open MPI's mpirun
     * returns only once every job it launched has: stopping them when this process exits normally
     * cut off the end of their output (a child's PASS line lost, 1 run in several under load).
     * The shutdown hook still stops those of a process that is stopped.
     */
    public static void awaitChildren() {
        List<Process> children;
        synchronized (CHILDREN) {
            children = List.copyOf(CHILDREN);
        }
        for (Process child : children) {
            try {
                child.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * A spawned job that fails (a rank of it killed, aborted) ends this job too, as in Open MPI:
     * its processes may be waiting for the children in a receive that would never complete. Not
     * once this process is ending, when it stops its children itself.
     */
    private static void abortIfItFails(JobRuntime rt, Process job) {
        job.onExit().thenAccept(ended -> {
            if (ended.exitValue() != 0 && !ending) {
                String why = "the job rank " + rt.job.rank() + " spawned (jmpirun pid " + ended.pid()
                        + ") ended with status " + ended.exitValue();
                System.err.println("jmca: rank " + rt.job.rank() + ": " + why + "; the job is aborted");
                rt.wireUp.abort(1, why);
            }
        });
    }

    private static void stopChildren() {
        ending = true;
        synchronized (CHILDREN) {
            CHILDREN.forEach(Process::destroy);
        }
    }
}
