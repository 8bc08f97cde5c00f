package org.jmca.launch;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jmca.rte.launcher.LaunchOptions;
import org.jmca.rte.launcher.Launcher;

/**
 * An MPI job started from Java: N ranks as processes, or as threads of this JVM, started, wired up
 * and supervised by {@link Launcher} (this JVM is the launcher). jmpirun runs its jobs through
 * this class too ({@link #from}).
 *
 * <pre>{@code
 * MpiJob job = MpiJob.processes(4)
 *         .mca("btl", "self,sm")
 *         .classPath(Path.of("app.jar"))
 *         .main("app.Ring", "--rounds", "3")
 *         .start();
 * MpiJob.Result result = job.waitFor(Duration.ofMinutes(1)); // or RankFailedException
 * result.stdout(0).forEach(System.out::println);
 * }</pre>
 *
 * Parameters come as a map ({@link Builder#mca(Map)}), as a HOCON or Open MPI-style snippet
 * ({@link Builder#parameters(String)}), and from the usual files and environment. A rank's
 * failure ends the job (as in jmpirun) and comes back from {@link #waitFor} as a
 * {@link RankFailedException} naming the rank and why.
 */
public final class MpiJob {
    private final Launcher launcher;
    private final CompletableFuture<Integer> status;
    private final Map<Integer, List<String>> stdout = new ConcurrentHashMap<>();
    private final Map<Integer, List<String>> stderr = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();
    private final boolean keepOutput;
    private volatile String stopReason;
    private volatile boolean cancelled;

    /** A job of {@code ranks} processes. */
    public static Builder processes(int ranks) {
        return new Builder(new LaunchOptions().ranks(checked(ranks)), true);
    }

    /**
     * A job of {@code ranks} threads of this JVM (jmpirun's {@code --ranks-as threads}): each rank
     * runs in a class loader of its own, so the {@code mpi} package's statics and the program's are
     * the rank's; they talk through {@code btl/thread}.
     */
    public static Builder threads(int ranks) {
        return new Builder(new LaunchOptions().ranks(checked(ranks)).threads(), true);
    }

    /** A job as jmpirun's flags describe it (jmpirun itself runs its jobs so). */
    public static Builder from(LaunchOptions options) {
        return new Builder(options, false);
    }

    private static int checked(int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + ranks);
        }
        return ranks;
    }

    /** What to run and how; {@link #start()} runs it. */
    public static final class Builder {
        private final LaunchOptions options;
        /** Made here (not from jmpirun's flags): a main class is required, the class path has a default. */
        private final boolean fromCode;
        private final List<String> classPath = new ArrayList<>();
        private String parameters;
        /** Where the main class given as a class was loaded from. */
        private String mainLocation;
        private PrintStream out = QUIET;
        private PrintStream err = QUIET;
        private boolean attached;
        private boolean keepOutput = true;
        private boolean started;

        private Builder(LaunchOptions options, boolean fromCode) {
            this.options = options;
            this.fromCode = fromCode;
        }

        /** An MCA parameter, as {@code --mca name value}. */
        public Builder mca(String name, String value) {
            options.mca(name, value);
            return this;
        }

        public Builder mca(Map<String, String> parameters) {
            new TreeMap<>(parameters).forEach(options::mca);
            return this;
        }

        /** Parameters as a file of them would hold (HOCON, or Open MPI's {@code name = value} lines). */
        public Builder parameters(String snippet) {
            this.parameters = snippet;
            return this;
        }

        /**
         * The program's class path (default: this JVM's; for thread ranks of a main class given as
         * a class, where that class comes from, so that only the program's own classes are loaded
         * again for each rank).
         */
        public Builder classPath(Path... entries) {
            for (Path entry : entries) {
                classPath.add(entry.toAbsolutePath().toString());
            }
            return this;
        }

        /** The hosts and their slots, as jmpirun's {@code --host}: {@code "h1:2,h2:2"} (default: this host). */
        public Builder hosts(String hostsAndSlots) {
            options.hosts(hostsAndSlots);
            return this;
        }

        /** Ranks in turn on each host ({@code true}: jmpirun's {@code --map-by node}) instead of filling its slots. */
        public Builder mapByNode(boolean byNode) {
            options.mapByNode(byNode);
            return this;
        }

        /** Each rank pinned to one CPU of its host (jmpirun's {@code --bind-to core}). */
        public Builder bindToCore() {
            options.bindToCore();
            return this;
        }

        /** An environment variable for every rank (jmpirun's {@code -x NAME=VALUE}). */
        public Builder env(String name, String value) {
            options.export(name + "=" + value);
            return this;
        }

        /** An option for every rank's JVM. */
        public Builder jvmArg(String option) {
            options.jvmArg(option);
            return this;
        }

        /** The class whose {@code main} every rank runs, and its arguments. */
        public Builder main(String className, String... arguments) {
            options.program(className, List.of(arguments));
            mainLocation = null;
            return this;
        }

        public Builder main(Class<?> mainClass, String... arguments) {
            main(mainClass.getName(), arguments);
            mainLocation = location(mainClass);
            return this;
        }

        /**
         * A lambda every rank runs with {@code arguments}, as a main method would be:
         * {@code args -> { MPI.Init(args); ...; MPI.Finalize(); }}. Each rank makes the lambda
         * again from its copy of the class that wrote it, which must be on the job's class path
         * (by default it is: this JVM's for processes, the class's jar or directory for threads).
         */
        public Builder main(RankMain body, String... arguments) {
            String[] line = new String[arguments.length + 1];
            line[0] = RankMainRunner.encode(body);
            System.arraycopy(arguments, 0, line, 1, arguments.length);
            main(RankMainRunner.class.getName(), line);
            mainLocation = location(RankMainRunner.writer(body));
            return this;
        }

        /** The jar or directory {@code type} was loaded from, or null. */
        private static String location(Class<?> type) {
            var source = type.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null || !"file".equals(source.getLocation().getProtocol())) {
                return null;
            }
            return Path.of(java.net.URI.create(source.getLocation().toString())).toString();
        }

        /** Stops the job after this long (default: never). */
        public Builder timeout(Duration limit) {
            options.timeout(limit.isZero() || limit.isNegative() ? 0
                    : (int) Math.min(Integer.MAX_VALUE, Math.max(1, limit.toSeconds())));
            return this;
        }

        /** Also prints the ranks' lines and the launcher's reports here, as jmpirun does (default: nowhere). */
        public Builder printTo(PrintStream output, PrintStream errors) {
            this.out = output;
            this.err = errors;
            return this;
        }

        /**
         * Gives the job this JVM's standard input (rank 0 reads it) and passes the SIGUSR1 and
         * SIGUSR2 this JVM gets on to the ranks, as jmpirun does. By default a program that starts
         * jobs keeps both.
         */
        public Builder attachTerminal() {
            this.attached = true;
            return this;
        }

        /** Whether {@link Result} holds the ranks' lines (default: yes; a long job printing much may say no). */
        public Builder keepOutput(boolean keep) {
            this.keepOutput = keep;
            return this;
        }

        /** Starts the job; its ranks run while this returns. A builder starts one job. */
        public MpiJob start() {
            if (started) {
                throw new IllegalStateException("this builder has started its job already: make another for the next");
            }
            started = true;
            if (fromCode && !options.hasProgram()) {
                throw new IllegalStateException("no main class: call main(...) first");
            }
            if (fromCode) {
                options.classPath(!classPath.isEmpty() ? String.join(java.io.File.pathSeparator, classPath)
                        : options.threadRanks() && mainLocation != null ? mainLocation
                        : System.getProperty("java.class.path"));
            }
            Path file = null;
            if (parameters != null) {
                try {
                    file = Files.createTempFile("jmca-job-", ".conf");
                    Files.writeString(file, parameters);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot write the job's parameters to a temporary file", e);
                }
                options.tune(file);
            }
            return new MpiJob(this, file);
        }
    }

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream(), true,
            StandardCharsets.UTF_8);

    private MpiJob(Builder builder, Path parameterFile) {
        this.keepOutput = builder.keepOutput;
        this.launcher = new Launcher(builder.options, builder.out, builder.err, new Launcher.Listener() {
            @Override
            public void line(int rank, boolean toStderr, String text) {
                if (keepOutput) {
                    (toStderr ? stderr : stdout).computeIfAbsent(rank,
                            r -> Collections.synchronizedList(new ArrayList<>())).add(text);
                }
            }

            @Override
            public void exited(int rank, int exitStatus) {
                exits.put(rank, exitStatus);
            }

            @Override
            public void stopping(String why) {
                if (stopReason == null) { // the first reason is the cause; later ones follow from it
                    stopReason = why;
                }
            }
        }, builder.attached);
        this.status = new CompletableFuture<>();
        Thread.ofPlatform().name("jmca-job").daemon().start(() -> {
            try {
                status.complete(launcher.call());
            } catch (Exception | Error e) {
                status.completeExceptionally(e);
            } finally {
                deleteQuietly(parameterFile);
            }
        });
    }

    /**
     * Waits for the job to end and returns its status, as jmpirun exits with it: 0 when every rank
     * finished; a job that could not start throws what stopped it (a bad flag or parameter, named
     * with where it came from).
     */
    public int status() throws InterruptedException {
        try {
            return status.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file
            }
        }
    }

    /** How a job ended: every rank's exit status and output. */
    public record Result(int status, Map<Integer, Integer> exitStatuses, Map<Integer, List<String>> stdout,
                         Map<Integer, List<String>> stderr) {
        /** The lines rank {@code rank} wrote to its standard output. */
        public List<String> stdout(int rank) {
            return stdout.getOrDefault(rank, List.of());
        }

        public List<String> stderr(int rank) {
            return stderr.getOrDefault(rank, List.of());
        }
    }

    /**
     * Waits for the job to end and returns how: every rank finished MPI and exited with 0. A rank
     * that failed ended the job: {@link RankFailedException}; the time up: {@link TimeoutException}
     * (the job goes on; {@link #cancel()} stops it); a cancelled job: {@link CancellationException};
     * a job that could not start (a bad parameter, named with where it came from):
     * {@link IllegalArgumentException}.
     */
    public Result waitFor(Duration limit) throws RankFailedException, TimeoutException, InterruptedException {
        int code;
        try {
            code = status.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // what jmpirun refuses before it starts a rank: a bad parameter (named with its source), a bad count
            throw new IllegalArgumentException("the job could not start: " + e.getCause().getMessage(), e.getCause());
        }
        Result result = new Result(code, Collections.unmodifiableMap(new TreeMap<>(exits)), copy(stdout), copy(stderr));
        if (cancelled) {
            throw new CancellationException("the job was cancelled (status " + code + ")");
        }
        if (code != 0) {
            java.util.regex.Matcher named = stopReason == null ? null
                    : java.util.regex.Pattern.compile("^rank (\\d+)").matcher(stopReason);
            int rank = named != null && named.find() ? Integer.parseInt(named.group(1))
                    : exits.entrySet().stream().filter(e -> e.getValue() != 0).mapToInt(Map.Entry::getKey).min()
                    .orElse(-1);
            throw new RankFailedException(rank, code, stopReason != null ? stopReason : "the job ended with status "
                    + code, result);
        }
        return result;
    }

    private static Map<Integer, List<String>> copy(Map<Integer, List<String>> lines) {
        Map<Integer, List<String>> copy = new TreeMap<>();
        lines.forEach((rank, list) -> copy.put(rank, snapshot(list)));
        return Collections.unmodifiableMap(copy);
    }

    private static List<String> snapshot(List<String> list) {
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    /** Stops the job: its ranks are ended and {@link #waitFor} reports it. */
    public void cancel() {
        cancelled = true;
        launcher.cancel();
    }

    /** Whether the job has ended. */
    public boolean isDone() {
        return status.isDone();
    }

    /** The lines rank {@code rank} has written to its standard output so far. */
    public List<String> stdoutSoFar(int rank) {
        return snapshot(stdout.getOrDefault(rank, List.of()));
    }
}
