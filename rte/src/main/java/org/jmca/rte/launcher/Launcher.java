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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jmca.config.McaSources;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.McaFrameworks;
import org.jmca.rte.AotCacheUse;
import org.jmca.rte.EmbeddedWireUp;
import org.jmca.rte.Hostname;
import org.jmca.rte.RankBinding;
import org.jmca.rte.Reach;

/**
 * Runs one job as its {@link LaunchOptions} describe it: starts N JVMs on this host and on the
 * hosts named (or N threads of this JVM, {@link ThreadJob}), serves their wire-up, forwards their
 * output, and ends the job as soon as one rank or host fails, saying which and how. Each remote
 * host's ranks are started by a daemon ({@link HostDaemon}) that the launch agent
 * ({@code plm_rsh_agent}, by default {@code ssh}) runs there; JMCA must be installed at the same
 * path on every host. The launch API ({@code org.jmca.launch.MpiJob}) runs it, and jmpirun
 * through the API.
 */
public final class Launcher implements Callable<Integer> {
    /** Variables through which jmpirun hands its --mca and --tune flags to the ranks. */
    public static final String ENV_MCA = McaSources.ENV_COMMAND_LINE;
    public static final String ENV_TUNE = McaSources.ENV_TUNE_FILES;
    /** The status of a job stopped by --timeout, as timeout(1) returns. */
    static final int TIMED_OUT = 124;
    /** The status of a job stopped by {@link #cancel()}, as for an interrupt. */
    static final int CANCELLED = 130;

    private final LaunchOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final Listener listener;
    private final boolean attached;
    private volatile boolean cancelled;
    /** The job, when its ranks are threads. */
    private volatile ThreadJob threadJob;
    /** What the user's JVM options leave to each host to size for its ranks ({@link RankShare}). */
    private String jvmShare = "";
    /** The AOT cache the ranks' JVMs are started with, or null. */
    private String rankCache;

    /**
     * @param out       where rank output goes (with {@code --tag-output} prefixes, as jmpirun prints it)
     * @param err       where rank errors and the launcher's own reports go
     * @param listener  who else hears of the job's lines, exits and end (the launch API), or null
     * @param attached  whether this JVM's standard input goes to rank 0 and its signals to the ranks
     *                  (jmpirun's own process; a program that embeds the launcher keeps both)
     */
    public Launcher(LaunchOptions options, PrintStream out, PrintStream err, Listener listener, boolean attached) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.listener = listener;
        this.attached = attached;
    }

    /** What a program that runs jobs (the launch API, {@code org.jmca.launch}) hears of one. */
    public interface Listener {
        /** A line a rank wrote. */
        void line(int rank, boolean stderr, String line);

        /** A rank (its process, or its thread) ended with {@code status}. */
        void exited(int rank, int status);

        /** The job is being stopped because of {@code why} (a rank's failure, the time limit, a cancel). */
        void stopping(String why);
    }

    /** Stops the job as soon as it can (its status then 130, as for an interrupt). */
    public void cancel() {
        cancelled = true;
        ThreadJob job = threadJob;
        if (job != null) {
            job.cancel();
        }
    }

    /** How one rank ended: its exit status, and where it ran. */
    private record RankExit(int rank, int status, long pid) {
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Host> hosts = hosts();
        int size = options.np != null ? options.np : options.perHost > 0 ? options.perHost * hosts.size()
                : options.hostSpec != null || options.hostfile != null ? hosts.stream().mapToInt(Host::slots).sum() : 0;
        if (size < 1) {
            throw new IllegalArgumentException(options.np == null ? "no number of processes: give -np N (or -N, --host,"
                    + " --hostfile)" : "-np " + options.np + ": the job needs at least one process");
        }
        if (options.hostSpec == null && options.hostfile == null) {
            hosts = List.of(new Host(Hostname.local(), size)); // this host alone takes every rank
        }
        List<Host> jobHosts = hosts;
        List<RankMap.Placement> placements = RankMap.map(hosts, size, options.mapBy, options.perHost, options.oversubscribe);
        int[] localSizes = new int[hosts.size()];
        placements.forEach(p -> localSizes[p.host()]++);
        List<String> userClassPath = userClassPath();
        String mainClass = mainClass(userClassPath);
        List<String> args = options.jar == null ? options.program.subList(1, options.program.size()) : options.program;
        List<String> agent = checkParameters(userClassPath);
        Map<String, String> exported = exported();
        if (options.ranksAs == LaunchOptions.RanksAs.threads) {
            return runThreads(size, userClassPath, mainClass, args, exported);
        }

        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String keyHex = HexFormat.of().formatHex(key);
        String jobId = "jmca-" + ProcessHandle.current().pid() + "-" + keyHex.substring(0, 8);
        boolean[] remote = new boolean[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            remote[h] = !isThisHost(hosts.get(h).name());
        }
        boolean anyRemote = IntStream.range(0, hosts.size()).anyMatch(h -> remote[h] && localSizes[h] > 0);

        BlockingQueue<String> failures = new LinkedBlockingQueue<>();
        BlockingQueue<RankExit> exits = new LinkedBlockingQueue<>();
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
        String[] rankHost = new String[size];
        placements.forEach(p -> rankHost[p.rank()] = jobHosts.get(p.host()).name());
        RemoteHost.Events hostEvents = new RemoteHost.Events() {
            @Override
            public void started(int rank, long pid) {
                report(rank, rankHost[rank], pid);
            }

            @Override
            public void exited(int rank, int status, long pid) {
                exits.add(new RankExit(rank, status, pid));
            }

            @Override
            public void failed(String why) {
                failures.add(why);
            }
        };
        try (RankOutput output = new RankOutput(options.tagOutput, out, err, options.outputDirectory, listener)) {
            RankProcesses ranks = new RankProcesses(output, attached);
            SessionDirectory session = SessionDirectory.create(jobId);
            List<RemoteHost> remotes = new ArrayList<>();
            for (int h = 0; h < hosts.size(); h++) {
                remotes.add(remote[h] && localSizes[h] > 0 ? new RemoteHost(h, hosts.get(h), agent, daemonCommand(),
                        session.forHost(h), output, err::println) : null);
            }
            Runnable stopEverything = () -> {
                ranks.stopAll(2000);
                stopHosts(remotes, 2000);
                session.remove();
            };
            if (attached) {
                ForwardedSignals.install(name -> {
                    ranks.signal(name);
                    remotes.stream().filter(Objects::nonNull).forEach(host -> host.signal(name));
                });
            }
            Thread stopOnSignal = new Thread(stopEverything, "jmpirun-shutdown");
            Runtime.getRuntime().addShutdownHook(stopOnSignal);
            try (JobServer server = new JobServer(size, keyHex, options.wireupTimeout, anyRemote, events, err::println);
                 DaemonServer daemons = anyRemote ? new DaemonServer(keyHex, remotes, hostEvents, err::println) : null) {
                List<String> command = command(userClassPath, mainClass, args);
                Map<Integer, List<DaemonProtocol.RankLaunch>> launches = new TreeMap<>();
                for (RankMap.Placement p : placements) {
                    Host host = hosts.get(p.host());
                    Map<String, String> env = new HashMap<>(exported);
                    env.putAll(environment(p, size, localSizes[p.host()], jobId, keyHex,
                            remote[p.host()] ? server.remoteAddress() : server.address()));
                    env.put(EmbeddedWireUp.ENV_HOSTNAME, host.name());
                    if (remote[p.host()]) {
                        launches.computeIfAbsent(p.host(), h -> new ArrayList<>())
                                .add(new DaemonProtocol.RankLaunch(p.rank(), p.localRank(), command, env));
                        continue;
                    }
                    env.put(EmbeddedWireUp.ENV_SESSION_DIR, session.path().toString());
                    Process process = ranks.start(p.rank(), local(RankShare.apply(command, env,
                            localSizes[p.host()])), env);
                    report(p.rank(), host.name(), process.pid());
                    int r = p.rank();
                    process.onExit().thenRun(() -> exits.add(new RankExit(r, process.exitValue(), process.pid())));
                }
                for (Map.Entry<Integer, List<DaemonProtocol.RankLaunch>> e : launches.entrySet()) {
                    remotes.get(e.getKey()).start(daemons.address(), keyHex);
                }
                for (Map.Entry<Integer, List<DaemonProtocol.RankLaunch>> e : launches.entrySet()) {
                    RemoteHost host = remotes.get(e.getKey());
                    if (!host.awaitConnection(options.wireupTimeout)) {
                        failures.add(host.whyNotConnected(options.wireupTimeout));
                        break;
                    }
                    host.launch(e.getValue());
                }
                int status = supervise(size, ranks, remotes, server, exits, failures, abortCode, rankHost);
                ranks.drainOutput();
                return status;
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopOnSignal);
                    stopEverything.run();
                } catch (IllegalStateException e) {
                    // jmpirun itself is being stopped: the hook does it
                }
            }
        }
    }

    /** The job as threads of this JVM ({@link ThreadJob}), its output and end reported as for processes. */
    private int runThreads(int size, List<String> userClassPath, String mainClass, List<String> args,
                           Map<String, String> env) throws IOException, InterruptedException {
        String notHere = options.hostSpec != null || options.hostfile != null ? "--host and --hostfile"
                : !options.jvmArgs.isEmpty() ? "--jvm-arg (give this JVM's options in JMCA_LAUNCHER_OPTS)" : null;
        if (notHere != null) {
            throw new IllegalArgumentException("--ranks-as threads runs every rank in jmpirun's own JVM, so "
                    + notHere + " cannot apply");
        }
        env.putAll(parametersAndLib());
        env.putAll(binding());
        env.put(ThreadJob.ENV_COMMAND, mainClass);
        List<URL> path = new ArrayList<>();
        for (String entry : userClassPath) {
            // a JVM expands "dir/*" to the jars in dir; a class loader does not
            List<Path> entries = entry.endsWith("*") ? jarsIn(Path.of(entry).getParent()) : List.of(Path.of(entry));
            for (Path each : entries) {
                path.add(each.toAbsolutePath().toUri().toURL());
            }
        }
        try (RankOutput output = new RankOutput(options.tagOutput, out, err, options.outputDirectory, listener)) {
            ThreadJob job = new ThreadJob(size, path, env, Duration.ofSeconds(options.wireupTimeout),
                    ThreadJob.main(mainClass, args), new Listener() {
                        @Override
                        public void line(int rank, boolean stderr, String line) {
                            output.line(rank, stderr, line);
                        }

                        @Override
                        public void exited(int rank, int status) {
                            if (listener != null) {
                                listener.exited(rank, status);
                            }
                        }

                        @Override
                        public void stopping(String why) {
                            if (listener != null) {
                                listener.stopping(why);
                            }
                            err.println("jmpirun: " + why + "; stopping the job");
                        }
                    });
            threadJob = job;
            if (cancelled) {
                job.cancel();
            }
            try {
                return job.run(options.timeout > 0 ? Duration.ofSeconds(options.timeout) : Duration.ZERO);
            } finally {
                threadJob = null; // a finished job's ranks must not stay reachable through this launcher
            }
        }
    }

    private static List<Path> jarsIn(Path directory) throws IOException {
        try (var files = Files.list(directory == null ? Path.of(".") : directory)) {
            return files.filter(f -> f.toString().endsWith(".jar") || f.toString().endsWith(".JAR")).sorted().toList();
        }
    }

    /** The ranks' variables for jmpirun's --mca and --tune, and where JMCA's jars are. */
    private Map<String, String> parametersAndLib() {
        Map<String, String> env = new HashMap<>();
        env.put(ENV_MCA, McaSources.encodeCommandLine(options.mcaOptions.mcaPairs()));
        env.put(ENV_TUNE, options.mcaOptions.tuneFiles().stream().map(f -> f.toAbsolutePath().toString())
                .collect(Collectors.joining(",")));
        String lib = System.getProperty("jmca.lib");
        if (lib != null) {
            env.put(ENV_LIB, lib); // where a rank that spawns a job finds the launcher
        }
        return env;
    }

    /**
     * Waits for every rank; on the first failure (a rank's, a host's, the time limit) stops the
     * job and reports it. Returns the job's status.
     */
    private int supervise(int size, RankProcesses ranks, List<RemoteHost> remotes, JobServer server,
                          BlockingQueue<RankExit> exits, BlockingQueue<String> failures, int[] abortCode,
                          String[] rankHost) throws InterruptedException {
        long deadline = options.timeout > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeout) : Long.MAX_VALUE;
        boolean hosts = remotes.stream().anyMatch(Objects::nonNull);
        int running = size;
        while (running > 0) {
            String failure = failures.poll();
            RankExit exit = failure != null ? null : exits.poll(50, TimeUnit.MILLISECONDS);
            if (failure == null && System.nanoTime() > deadline) {
                List<String> stopped = ranks.stopped().entrySet().stream()
                        .map(r -> where(r.getKey(), r.getValue(), hosts, rankHost)).toList();
                return stop(ranks, remotes, "the job ran longer than --timeout " + options.timeout + " s" + (stopped.isEmpty()
                        ? "" : ": " + String.join(", ", stopped) + (stopped.size() == 1 ? " was" : " were")
                        + " stopped by a signal"), TIMED_OUT);
            }
            if (failure == null && cancelled) {
                return stop(ranks, remotes, "the job was cancelled", CANCELLED);
            }
            if (exit != null) {
                told(exit);
                running--;
                if (exit.status() == 0 && (!server.hasJoined(exit.rank()) || server.finalizedOnceRead(exit.rank(), 2000))) {
                    continue;
                }
            } else if (failure == null) {
                continue;
            }
            // A failure is seen first where it is least explained: a rank's peers abort when it dies,
            // and a host's daemon vanishes with its ranks. Wait a moment, then report the cause.
            Thread.sleep(300);
            List<String> failed = new ArrayList<>();
            if (failure != null) {
                failed.add(failure);
            }
            failures.drainTo(failed);
            List<RankExit> died = new ArrayList<>();
            if (exit != null) {
                died.add(exit);
            }
            exits.drainTo(died);
            died.stream().filter(e -> e != exit).forEach(this::told);
            String daemonGone = failed.stream().filter(f -> f.startsWith("the daemon")).findFirst().orElse(null);
            RankExit signalled = died.stream().filter(e -> e.status() > 128 && e.status() < 128 + 65).findFirst()
                    .orElse(null);
            // A rank that returned without MPI.Finalize ends with status 0, so no other's failure made
            // it end: seen first, it is the cause, and a peer that failed on its way (its shared
            // memory gone while it wired up) is not.
            RankExit ended = exit != null && exit.status() == 0 ? exit
                    : died.stream().filter(e -> e.status() != 0).findFirst().orElse(exit);
            String why;
            int status;
            if (daemonGone != null) { // the cause, in this order: a host gone, a rank killed, an abort, the rest
                why = daemonGone;
                status = 1;
            } else if (signalled != null) {
                why = where(signalled, hosts, rankHost) + " " + describeExit(signalled.status());
                status = signalled.status();
            } else if (!failed.isEmpty()) {
                why = failed.stream().filter(f -> f.contains(" aborted the job")).findFirst().orElse(failed.getFirst());
                status = abortStatus(abortCode, ended != null && ended.status() != 0 ? ended.status() : 1);
            } else {
                why = where(ended, hosts, rankHost) + (ended.status() != 0 ? " " + describeExit(ended.status())
                        : " exited without calling MPI.Finalize");
                status = ended.status() != 0 ? ended.status() : 1;
            }
            return stop(ranks, remotes, why, status);
        }
        return 0;
    }

    private static String where(RankExit exit, boolean hosts, String[] rankHost) {
        return where(exit.rank(), exit.pid(), hosts, rankHost);
    }

    private static String where(int rank, long pid, boolean hosts, String[] rankHost) {
        return "rank " + rank + (hosts ? " on host " + rankHost[rank] : "") + " (pid " + pid + ")";
    }

    /** The code a rank's abort gave, or {@code otherwise}. */
    private static int abortStatus(int[] abortCode, int otherwise) {
        synchronized (abortCode) {
            return abortCode[0] != 0 ? abortCode[0] : otherwise;
        }
    }

    private void told(RankExit exit) {
        if (listener != null) {
            listener.exited(exit.rank(), exit.status());
        }
    }

    private int stop(RankProcesses ranks, List<RemoteHost> remotes, String why, int status) {
        if (listener != null) {
            listener.stopping(why);
        }
        err.println("jmpirun: " + why + "; stopping the job");
        ranks.stopAll(3000);
        stopHosts(remotes, 3000);
        return status;
    }

    /** Stops every remote host at once (each waits for its daemon's goodbye). */
    private static void stopHosts(List<RemoteHost> remotes, int graceMillis) {
        List<Thread> stoppers = remotes.stream().filter(Objects::nonNull)
                .map(r -> Thread.ofPlatform().start(() -> r.stop(graceMillis))).toList();
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
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
        if (options.jar != null) {
            if (!Files.isRegularFile(options.jar)) {
                throw new IllegalArgumentException("-jar " + options.jar + ": no such file");
            }
            entries.add(options.jar.toAbsolutePath().toString());
        }
        String cp = options.classPath != null ? options.classPath : System.getenv("CLASSPATH");
        if (cp != null && !cp.isBlank()) {
            entries.addAll(Arrays.asList(cp.split(File.pathSeparator)));
        } else if (options.jar == null && options.classPath == null) {
            entries.add(".");
        }
        return entries;
    }

    private String mainClass(List<String> userClassPath) throws IOException {
        if (options.jar == null) {
            if (options.program.isEmpty()) {
                throw new IllegalArgumentException("no program given: jmpirun -np N CLASS [ARGS...] or -jar JAR");
            }
            return options.program.getFirst();
        }
        try (JarFile file = new JarFile(options.jar.toFile())) {
            String main = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (main == null) {
                throw new IllegalArgumentException("-jar " + options.jar + ": the jar's manifest names no Main-Class");
            }
            return main;
        }
    }

    /**
     * Runs the selection every rank will run, once, so that a bad --mca value or component list
     * stops the job with one message before any JVM starts.
     */
    private List<String> checkParameters(List<String> userClassPath) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : userClassPath) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), getClass().getClassLoader())) {
            McaSources sources = options.mcaOptions.sources().classLoader(loader);
            McaFrameworks frameworks = McaFrameworks.open(ComponentRepository.discover(loader), sources.registry(),
                    line -> { });
            List<String> agent = frameworks.rshAgent();
            frameworks.close();
            return agent;
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
        userJvmArgs.addAll(options.jvmArgs);
        String lib = System.getProperty("jmca.lib");
        if (!options.noAotCache && lib != null) {
            List<String> aot = AotCache.options(Path.of(lib), userJvmArgs);
            command.addAll(aot);
            rankCache = aot.isEmpty() ? null : Path.of(lib).resolveSibling(AotCache.RANK_CACHE).toString();
            String unused = AotCache.whyUnused(Path.of(lib), userJvmArgs);
            if (unused != null) {
                err.println("jmpirun: warning: " + unused);
            }
        }
        command.addAll(userJvmArgs);
        // JAVA_TOOL_OPTIONS reaches the ranks too, and the sizing options would override it
        List<String> sizedByUser = new ArrayList<>(userJvmArgs);
        String toolOptions = System.getenv("JAVA_TOOL_OPTIONS");
        if (toolOptions != null && !toolOptions.isBlank()) {
            sizedByUser.addAll(Arrays.asList(toolOptions.trim().split("\\s+")));
        }
        jvmShare = RankShare.leftToSize(sizedByUser);
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

    /**
     * A rank of this host's command: under {@code setpriv --pdeathsig KILL} where it exists (so a
     * rank dies with jmpirun even when jmpirun is killed). A rank binds itself (RankBinding).
     */
    private static List<String> local(List<String> command) {
        List<String> full = new ArrayList<>();
        Path setpriv = Path.of("/usr/bin/setpriv");
        if (Files.isExecutable(setpriv)) {
            full.addAll(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--"));
        }
        full.addAll(command);
        return full;
    }

    /** Under --report-bindings: where a rank runs (the rank says what it binds, in MPI.Init). */
    private void report(int rank, String host, long pid) {
        if (options.reportBindings) {
            synchronized (err) {
                err.println("jmpirun: rank " + rank + " on host " + host + " (pid " + pid + ")");
            }
        }
    }

    /** The hosts of --host or --hostfile, or this host alone. */
    private List<Host> hosts() {
        if (options.hostSpec != null && options.hostfile != null) {
            throw new IllegalArgumentException("--host and --hostfile are both given; give one");
        }
        return options.hostSpec != null ? HostList.parse(options.hostSpec) : options.hostfile != null ? HostList.read(options.hostfile)
                : List.of(new Host(Hostname.local(), 1));
    }

    /** True if {@code name} is this host: its name, localhost, or a literal address of its own. */
    private static boolean isThisHost(String name) {
        if (name.equals(Hostname.local()) || name.equals("localhost")) {
            return true;
        }
        return Reach.localAddresses().stream().anyMatch(a -> a.getHostAddress().equals(name));
    }

    /** The variables of -x: NAME=VALUE as given, NAME alone with its value here. */
    private Map<String, String> exported() {
        Map<String, String> env = new HashMap<>();
        for (String export : options.exports) {
            int eq = export.indexOf('=');
            String name = eq < 0 ? export : export.substring(0, eq);
            if (name.isEmpty() || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("-x " + export + ": '" + name + "' is not a variable name");
            }
            String value = eq < 0 ? System.getenv(name) : export.substring(eq + 1);
            if (value == null) {
                throw new IllegalArgumentException("-x " + export + ": " + name + " is not set here; give -x "
                        + name + "=VALUE");
            }
            env.put(name, value);
        }
        return env;
    }

    /** The daemon's command on a remote host, without its arguments: this JVM and JMCA's jars, at the same paths. */
    private List<String> daemonCommand() {
        String lib = System.getProperty("jmca.lib");
        // The daemon only starts processes and forwards bytes: C1 alone and the serial collector
        // start it with less work on a host whose cores its ranks are about to need.
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "-cp", lib != null ? Path.of(lib).resolve("*").toString() : System.getProperty("java.class.path"),
                HostDaemon.class.getName());
    }

    /** The environment variable that tells ranks where JMCA's jars are (MPI_Comm_spawn starts jmpirun from them). */
    public static final String ENV_LIB = "JMCA_LIB";

    private Map<String, String> environment(RankMap.Placement p, int size, int localSize, String jobId, String keyHex,
                                            String server) {
        Map<String, String> env = new HashMap<>();
        env.put(EmbeddedWireUp.ENV_SERVER, server);
        env.put(EmbeddedWireUp.ENV_RANK, String.valueOf(p.rank()));
        env.put(EmbeddedWireUp.ENV_SIZE, String.valueOf(size));
        env.put(EmbeddedWireUp.ENV_LOCAL_SIZE, String.valueOf(localSize));
        env.put(EmbeddedWireUp.ENV_LOCAL_RANK, String.valueOf(p.localRank()));
        env.put(EmbeddedWireUp.ENV_JOB_ID, jobId);
        env.put(EmbeddedWireUp.ENV_JOB_KEY, keyHex);
        env.put(EmbeddedWireUp.ENV_TIMEOUT, String.valueOf(options.wireupTimeout + 10));
        env.putAll(parametersAndLib());
        env.putAll(binding());
        env.put(RankShare.ENV, jvmShare);
        if (rankCache != null) {
            env.put(AotCacheUse.ENV_CACHE, rankCache);
        }
        return env;
    }

    /** What the ranks are to bind and report (RankBinding): each binds its own thread in MPI.Init. */
    private Map<String, String> binding() {
        Map<String, String> env = new HashMap<>();
        if (options.bindTo == LaunchOptions.Binding.core) {
            env.put(RankBinding.ENV_BIND_TO, "core");
        }
        if (options.reportBindings) {
            env.put(RankBinding.ENV_REPORT, "1");
        }
        return env;
    }
}
