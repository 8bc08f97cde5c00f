package org.jmca.rte.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.jmca.config.McaOptions;
import org.jmca.config.McaSources;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.McaException;
import org.jmca.mca.McaFrameworks;
import org.jmca.rte.EmbeddedWireUp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jmpirun}: starts an MPI job of N JVMs on this host, serves their wire-up, forwards their
 * output, and ends the job as soon as one rank fails, saying which and how.
 */
@Command(name = "jmpirun", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs an MPI program on N processes of this host.",
                "  jmpirun -np 4 [--mca NAME VALUE]... [-cp CLASSPATH] CLASS [ARGS...]",
                "  jmpirun -np 4 [--mca NAME VALUE]... -jar JAR [ARGS...]"})
public final class JmpiRun implements Callable<Integer> {
    /** Variables through which jmpirun hands its --mca and --tune flags to the ranks. */
    public static final String ENV_MCA = McaSources.ENV_COMMAND_LINE;
    public static final String ENV_TUNE = McaSources.ENV_TUNE_FILES;

    @Option(names = {"-np", "-n", "--np"}, required = true, paramLabel = "N", description = "Number of processes.")
    private int np;

    @Mixin
    private McaOptions mcaOptions = new McaOptions();

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH",
            description = "Class path of the program (default: $CLASSPATH, else the current directory;"
                    + " an empty one runs a class of JMCA's own jars).")
    private String classPath;

    @Option(names = "-jar", paramLabel = "JAR", description = "Run the Main-Class of JAR.")
    private Path jar;

    @Option(names = "--tag-output", description = "Prefix each line of output with [1,RANK]<stdout>: as Open MPI does.")
    private boolean tagOutput;

    @Option(names = "--wireup-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long ranks may wait for each other in MPI.Init's exchange (default ${DEFAULT-VALUE}).")
    private int wireupTimeout;

    /** Where ranks may run. */
    enum Binding { none, core }

    @Option(names = "--bind-to", paramLabel = "none|core", defaultValue = "none",
            description = "core: pin rank R to CPU R mod (CPUs of this host), with taskset, as Open MPI's --bind-to core;"
                    + " none (default): let the scheduler place ranks.")
    private Binding bindTo;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "An option for every rank's JVM (repeatable).")
    private List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--no-aot-cache", description = "Start the ranks without the ahead-of-time cache that the build"
            + " trained (" + AotCache.RANK_CACHE + "); it is also left out when a --jvm-arg or JMCA_JAVA_OPTS"
            + " names an AOT or CDS option of its own.")
    private boolean noAotCache;

    @Parameters(paramLabel = "CLASS [ARGS...]", arity = "0..*", description = "The main class and its arguments.")
    private List<String> program = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;

    JmpiRun(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        CommandLine command = new CommandLine(new JmpiRun(System.out, System.err)).setStopAtPositional(true);
        command.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            if (e instanceof McaException || e instanceof IllegalArgumentException) {
                System.err.println("jmpirun: error: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        System.exit(command.execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (np < 1) {
            throw new IllegalArgumentException("-np " + np + ": the job needs at least one process");
        }
        List<String> userClassPath = userClassPath();
        String mainClass = mainClass(userClassPath);
        List<String> args = jar == null ? program.subList(1, program.size()) : program;
        checkParameters(userClassPath);

        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String keyHex = HexFormat.of().formatHex(key);
        String jobId = "jmca-" + ProcessHandle.current().pid() + "-" + keyHex.substring(0, 8);

        BlockingQueue<String> failures = new LinkedBlockingQueue<>();
        int[] abortCode = {0};
        JobServer.Events events = new JobServer.Events() {
            @Override
            public void aborted(int rank, int code, String message) {
                synchronized (abortCode) {
                    abortCode[0] = code == 0 ? 1 : code;
                }
                failures.add("rank " + rank + " aborted the job with error code " + code + ": " + message);
            }

            @Override
            public void exchangeTimedOut(List<Integer> missing, long seconds) {
                failures.add("rank(s) " + missing.stream().map(String::valueOf).collect(Collectors.joining(", "))
                        + " did not reach MPI.Init's wire-up exchange within " + seconds + " s (--wireup-timeout)");
            }
        };
        RankProcesses ranks = new RankProcesses(tagOutput, out, err);
        SessionDirectory session = SessionDirectory.create(jobId);
        Thread stopOnSignal = new Thread(() -> {
            ranks.stopAll(2000);
            session.remove();
        }, "jmpirun-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        try (JobServer server = new JobServer(np, keyHex, wireupTimeout, events, err::println)) {
            List<String> command = command(userClassPath, mainClass, args);
            BlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
            for (int rank = 0; rank < np; rank++) {
                Map<String, String> env = environment(rank, jobId, keyHex, server.address());
                env.put(EmbeddedWireUp.ENV_SESSION_DIR, session.path().toString());
                int r = rank;
                ranks.start(rank, bound(rank, command), env).onExit().thenRun(() -> exited.add(r));
            }
            int status = supervise(ranks, server, exited, failures, abortCode);
            ranks.drainOutput();
            return status;
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopOnSignal);
            session.remove();
        }
    }

    /** Waits for every rank; on the first failure stops the others and reports it. Returns the job's status. */
    private int supervise(RankProcesses ranks, JobServer server, BlockingQueue<Integer> exited,
                          BlockingQueue<String> failures, int[] abortCode) throws InterruptedException {
        int running = np;
        int status = 0;
        while (running > 0) {
            String failure = failures.poll();
            if (failure != null) {
                err.println("jmpirun: " + failure + "; stopping the job");
                ranks.stopAll(3000);
                synchronized (abortCode) {
                    return abortCode[0] != 0 ? abortCode[0] : 1;
                }
            }
            Integer rank = exited.poll(50, TimeUnit.MILLISECONDS);
            if (rank == null) {
                continue;
            }
            running--;
            Process process = ranks.processes().get(rank);
            int code = process.exitValue();
            String why = null;
            if (code != 0) {
                why = "rank " + rank + " (pid " + process.pid() + ") " + describeExit(code);
                status = code;
            } else if (server.hasJoined(rank) && !server.hasFinalized(rank)) {
                why = "rank " + rank + " (pid " + process.pid() + ") exited without calling MPI.Finalize";
                status = 1;
            }
            if (why != null) {
                // An abort arrives just before its rank exits: report the abort, not the exit.
                Thread.sleep(100);
                String abort = failures.poll();
                err.println("jmpirun: " + (abort != null ? abort : why) + "; stopping the job");
                ranks.stopAll(3000);
                synchronized (abortCode) {
                    return abort != null && abortCode[0] != 0 ? abortCode[0] : status;
                }
            }
        }
        return status;
    }

    static String describeExit(int code) {
        if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            String name = switch (signal) {
                case 1 -> " (SIGHUP)";
                case 2 -> " (SIGINT)";
                case 3 -> " (SIGQUIT)";
                case 6 -> " (SIGABRT)";
                case 9 -> " (SIGKILL)";
                case 11 -> " (SIGSEGV)";
                case 15 -> " (SIGTERM)";
                default -> "";
            };
            return "was killed by signal " + signal + name;
        }
        return "exited with status " + code;
    }

    private List<String> userClassPath() {
        List<String> entries = new ArrayList<>();
        if (jar != null) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("-jar " + jar + ": no such file");
            }
            entries.add(jar.toAbsolutePath().toString());
        }
        String cp = classPath != null ? classPath : System.getenv("CLASSPATH");
        if (cp != null && !cp.isBlank()) {
            entries.addAll(Arrays.asList(cp.split(File.pathSeparator)));
        } else if (jar == null && classPath == null) {
            entries.add(".");
        }
        return entries;
    }

    private String mainClass(List<String> userClassPath) throws IOException {
        if (jar == null) {
            if (program.isEmpty()) {
                throw new IllegalArgumentException("no program given: jmpirun -np N CLASS [ARGS...] or -jar JAR");
            }
            return program.getFirst();
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            String main = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (main == null) {
                throw new IllegalArgumentException("-jar " + jar + ": the jar's manifest names no Main-Class");
            }
            return main;
        }
    }

    /**
     * Runs the selection every rank will run, once, so that a bad --mca value or component list
     * stops the job with one message before any JVM starts.
     */
    private void checkParameters(List<String> userClassPath) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : userClassPath) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), getClass().getClassLoader())) {
            McaSources sources = mcaOptions.sources().classLoader(loader);
            McaFrameworks.open(ComponentRepository.discover(loader), sources.registry(), line -> { }).close();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the class path " + userClassPath + ": " + e.getMessage());
        }
    }

    private List<String> command(List<String> userClassPath, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Transports call native functions (process_vm_readv) through the FFM API.
        command.add("--enable-native-access=ALL-UNNAMED");
        List<String> userJvmArgs = new ArrayList<>();
        String opts = System.getenv("JMCA_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            userJvmArgs.addAll(Arrays.asList(opts.trim().split("\\s+")));
        }
        userJvmArgs.addAll(jvmArgs);
        String lib = System.getProperty("jmca.lib");
        if (!noAotCache && lib != null) {
            command.addAll(AotCache.options(Path.of(lib), userJvmArgs));
        }
        command.addAll(userJvmArgs);
        List<String> cp = new ArrayList<>();
        if (lib != null) {
            cp.add(Path.of(lib).resolve("*").toString());
        } else {
            cp.add(System.getProperty("java.class.path"));
        }
        userClassPath.forEach(entry -> cp.add(Path.of(entry).toAbsolutePath().toString()));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, cp));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** The rank's command, pinned to one CPU with taskset under --bind-to core. */
    private List<String> bound(int rank, List<String> command) {
        if (bindTo == Binding.none) {
            return command;
        }
        Path taskset = Path.of("/usr/bin/taskset");
        if (!Files.isExecutable(taskset)) {
            throw new IllegalArgumentException("--bind-to core needs taskset (apt-get install util-linux)");
        }
        List<String> pinned = new ArrayList<>(List.of(taskset.toString(), "-c",
                String.valueOf(rank % Runtime.getRuntime().availableProcessors())));
        pinned.addAll(command);
        return pinned;
    }

    private Map<String, String> environment(int rank, String jobId, String keyHex, String server) {
        Map<String, String> env = new HashMap<>();
        env.put(EmbeddedWireUp.ENV_SERVER, server);
        env.put(EmbeddedWireUp.ENV_RANK, String.valueOf(rank));
        env.put(EmbeddedWireUp.ENV_SIZE, String.valueOf(np));
        env.put(EmbeddedWireUp.ENV_LOCAL_SIZE, String.valueOf(np));
        env.put(EmbeddedWireUp.ENV_JOB_ID, jobId);
        env.put(EmbeddedWireUp.ENV_JOB_KEY, keyHex);
        env.put(EmbeddedWireUp.ENV_TIMEOUT, String.valueOf(wireupTimeout + 10));
        env.put(ENV_MCA, McaSources.encodeCommandLine(mcaOptions.mcaPairs()));
        env.put(ENV_TUNE, mcaOptions.tuneFiles().stream().map(p -> p.toAbsolutePath().toString())
                .collect(Collectors.joining(",")));
        return env;
    }
}
