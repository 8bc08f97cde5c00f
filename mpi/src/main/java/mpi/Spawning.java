package mpi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jmca.rte.launcher.JmpiRun;
import org.jmca.rte.launcher.Launcher;
import org.jmca.runtime.JobRuntime;

/**
 * {@link Intracomm#spawn}: the root opens a port and starts jmpirun (from JMCA's jars) with the
 * program, telling the new job the port in {@value #PARENT_PORT}; the new job's MPI.Init
 * connects to it ({@link #connectToParent}), which is the accept's other side.
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

    static Intercomm spawn(JobRuntime rt, Intracomm comm, String command, String[] argv, int maxprocs, int root,
                           int[] errcodes) throws MPIException {
        if (maxprocs < 1) {
            throw new MPIException(MPI.ERR_SPAWN, "maxprocs " + maxprocs + " is not a positive number of processes");
        }
        String port = null;
        Process process = null;
        try {
            // the root starts the job; every process learns whether it could, before the accept
            MPIException failure = null;
            if (comm.rank() == root) {
                try {
                    port = DynamicProcesses.openPort(rt);
                    process = start(command, argv, maxprocs, port);
                } catch (MPIException e) {
                    failure = e;
                }
            }
            int[] failed = InternalCollectives.bcast(comm, comm.rank() == root
                    ? new int[] {failure == null ? 0 : failure.getErrorClass()} : null, root, 1);
            if (failed[0] != 0) {
                throw failure != null ? failure : new MPIException(failed[0], "the root, rank " + root + " of " + comm
                        + ", could not start the job (it reports why)");
            }
            Process started = process;
            Intercomm children = DynamicProcesses.accept(rt, comm, port, root, started == null ? null
                    : () -> started.isAlive() ? null : "the spawned job ended (status " + started.exitValue()
                    + ") before it connected: see its output above");
            if (errcodes != null) {
                Arrays.fill(errcodes, 0, Math.min(errcodes.length, maxprocs), MPI.SUCCESS);
            }
            return children;
        } finally {
            if (port != null) {
                DynamicProcesses.closePort(port);
            }
        }
    }

    private static Process start(String command, String[] argv, int maxprocs, String port) throws MPIException {
        if (!"java".equals(command)) {
            throw new MPIException(MPI.ERR_SPAWN, "JMCA spawns Java programs: the command is \"java\" and the"
                    + " arguments what follows it (\"-cp\", PATH, CLASS, ARGS...), not '" + command + "'");
        }
        Path lib = launcherLib();
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djmca.lib=" + lib, "-cp", lib.resolve("*").toString(),
                JmpiRun.class.getName(), "-np", String.valueOf(maxprocs), "-x", PARENT_PORT));
        line.addAll(Arrays.asList(argv == null ? new String[0] : argv));
        ProcessBuilder builder = new ProcessBuilder(line).inheritIO();
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
