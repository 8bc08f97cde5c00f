package mpi;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jmca.rte.launcher.JmpiRun;
import org.jmca.rte.launcher.Launcher;
import org.jmca.rte.launcher.SpawnLine;
import org.jmca.runtime.JobRuntime;

/**
 * {@link Intracomm#spawn}: the root opens a port and starts jmpirun (from JMCA's jars) with the
 * program as a {@code java} command line names it ({@link SpawnLine}), telling the new job the
 * port in {@value #PARENT_PORT}; the new job's MPI.Init connects to it ({@link
 * #connectToParent}), which is the accept's other side.
 */
final class Spawning {
    /** The environment variable that tells a spawned job where its parent accepts. */
    static final String PARENT_PORT = "JMCA_PARENT_PORT";
    private static Intercomm parent;
    /** The spawned jobs' launchers, stopped if they outlive this process. */
    private static final List<Process> CHILDREN = new ArrayList<>();

    private Spawning() {
    }

    static Intercomm parent() {
        return parent;
    }

    static void connectToParent(JobRuntime rt, String port) throws MPIException {
        parent = DynamicProcesses.connect(rt, MPI.COMM_WORLD, port, 0);
    }

    static Intercomm spawn(JobRuntime rt, Intracomm comm, String[] commands, String[][] argv, int[] maxprocs,
                           Info[] info, int root, int[] errcodes) throws MPIException {
        String port = null;
        Process process = null;
        try {
            // the root starts the job; every process learns whether it could, and how many, before the accept
            MPIException failure = null;
            int total = 0;
            if (comm.rank() == root) {
                try {
                    List<String> line = SpawnLine.jmpirunArguments(commands, argv, maxprocs, parentClassPath());
                    total = Arrays.stream(maxprocs).sum();
                    port = DynamicProcesses.openPort(rt);
                    process = start(line, workingDirectory(info), port);
                } catch (IllegalArgumentException e) {
                    failure = new MPIException(MPI.ERR_SPAWN, e.getMessage());
                } catch (MPIException e) {
                    failure = e;
                }
            }
            int[] told = InternalCollectives.bcast(comm, comm.rank() == root
                    ? new int[] {failure == null ? 0 : failure.getErrorClass(), total} : null, root, 2);
            if (told[0] != 0) {
                throw failure != null ? failure : new MPIException(told[0], "the root, rank " + root + " of " + comm
                        + ", could not start the job (it reports why)");
            }
            Process started = process;
            Intercomm children = DynamicProcesses.accept(rt, comm, port, root, started == null ? null
                    : () -> started.isAlive() ? null : "the spawned job ended (status " + started.exitValue()
                    + ") before it connected: see its output above");
            if (errcodes != null) {
                Arrays.fill(errcodes, 0, Math.min(errcodes.length, told[1]), MPI.SUCCESS);
            }
            return children;
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

    /** The info key "wdir" of the first info that has it, or null (this process's directory). */
    private static Path workingDirectory(Info[] info) throws MPIException {
        for (Info each : info == null ? new Info[0] : info) {
            String wdir = each == null || each.isNull() ? null : each.get("wdir");
            if (wdir != null) {
                Path dir = Path.of(wdir);
                if (!Files.isDirectory(dir)) {
                    throw new MPIException(MPI.ERR_SPAWN, "the info key wdir names " + wdir + ", which is no"
                            + " directory");
                }
                return dir;
            }
        }
        return null;
    }

    private static Process start(List<String> jmpirunArguments, Path directory, String port) throws MPIException {
        Path lib = launcherLib();
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djmca.lib=" + lib, "-cp", lib.resolve("*").toString(),
                JmpiRun.class.getName(), "-x", PARENT_PORT));
        line.addAll(jmpirunArguments);
        ProcessBuilder builder = new ProcessBuilder(line).inheritIO();
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().put(PARENT_PORT, port);
        try {
            Process process = builder.start();
            synchronized (CHILDREN) {
                if (CHILDREN.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(Spawning::stopChildren, "jmca-spawned-jobs"));
                }
                CHILDREN.add(process);
            }
            return process;
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_SPAWN, "cannot start jmpirun from " + lib + ": " + e.getMessage());
        }
    }

    /** JMCA's jars: where jmpirun said (JMCA_LIB), else beside the jar this class came from. */
    private static Path launcherLib() throws MPIException {
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
        throw new MPIException(MPI.ERR_SPAWN, "cannot find JMCA's jars to start jmpirun: " + Launcher.ENV_LIB
                + " is not set (jmpirun sets it for its ranks)");
    }

    private static void stopChildren() {
        synchronized (CHILDREN) {
            CHILDREN.forEach(Process::destroy);
        }
    }
}
