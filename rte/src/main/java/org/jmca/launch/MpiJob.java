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
import org.jmca.rte.launcher.JmpiRun;

/**
 * An MPI job started from Java: N ranks as processes, or as threads of this JVM, started, wired up
 * and supervised by the same machinery as {@code jmpirun} (this JVM is the launcher).
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
    private final JmpiRun run;
    private final CompletableFuture<Integer> status;
    private final Map<Integer, List<String>> stdout = new ConcurrentHashMap<>();
    private final Map<Integer, List<String>> stderr = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();
    private volatile String stopReason;
    private volatile boolean cancelled;
    private final Path parameterFile;

    /** A job of {@code ranks} processes. */
    public static Builder processes(int ranks) {
        return new Builder(checked(ranks), false);
    }

    /**
     * A job of {@code ranks} threads of this JVM (jmpirun's {@code --ranks-as threads}): each rank
     * runs in a class loader of its own, so the {@code mpi} package's statics and the program's are
     * the rank's; they talk through {@code btl/thread}.
     */
    public static Builder threads(int ranks) {
        return new Builder(checked(ranks), true);
    }

    private static int checked(int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + ranks);
        }
        return ranks;
    }

    /** What to run and how; {@link #start()} runs it. */
    public static final class Builder {
        private final int ranks;
        private final Map<String, String> mca = new TreeMap<>();
        private final List<String> classPath = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        /** jmpirun's placement and environment flags, as given. */
        private final List<String> launchFlags = new ArrayList<>();
        private String parameters;
        private String mainClass;
        private List<String> args = List.of();
        private Duration timeout = Duration.ZERO;

        private final boolean threads;
        /** Where the main class given as a class was loaded from. */
        private String mainLocation;

        private Builder(int ranks, boolean threads) {
            this.ranks = ranks;
            this.threads = threads;
        }

        /** An MCA parameter, as {@code --mca name value}. */
        public Builder mca(String name, String value) {
            mca.put(name, value);
            return this;
        }

        public Builder mca(Map<String, String> parameters) {
            mca.putAll(parameters);
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
            launchFlags.add("--host=" + hostsAndSlots);
            return this;
        }

        /** Ranks in turn on each host ({@code true}: jmpirun's {@code --map-by node}) instead of filling its slots. */
        public Builder mapByNode(boolean byNode) {
            launchFlags.add("--map-by=" + (byNode ? "node" : "slot"));
            return this;
        }

        /** Each rank pinned to one CPU of its host (jmpirun's {@code --bind-to core}). */
        public Builder bindToCore() {
            launchFlags.add("--bind-to=core");
            return this;
        }

        /** An environment variable for every rank (jmpirun's {@code -x NAME=VALUE}). */
        public Builder env(String name, String value) {
            launchFlags.add("-x=" + name + "=" + value);
            return this;
        }

        /** An option for every rank's JVM. */
        public Builder jvmArg(String option) {
            jvmArgs.add(option);
            return this;
        }

        /** The class whose {@code main} every rank runs, and its arguments. */
        public Builder main(String className, String... arguments) {
            this.mainClass = className;
            this.args = List.of(arguments);
            return this;
        }

        public Builder main(Class<?> mainClass, String... arguments) {
            var source = mainClass.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
                mainLocation = Path.of(java.net.URI.create(source.getLocation().toString())).toString();
            }
            return main(mainClass.getName(), arguments);
        }

        /** Stops the job after this long (default: never). */
        public Builder timeout(Duration limit) {
            this.timeout = limit;
            return this;
        }

        /** Starts the job; its ranks run while this returns. */
        public MpiJob start() {
            if (mainClass == null) {
                throw new IllegalStateException("no main class: call main(...) first");
            }
            List<String> line = new ArrayList<>(List.of("-np", String.valueOf(ranks)));
            if (threads) {
                line.add("--ranks-as=threads");
            }
            mca.forEach((name, value) -> line.addAll(List.of("--mca", name, value)));
            Path file = null;
            if (parameters != null) {
                try {
                    file = Files.createTempFile("jmca-job-", ".conf");
                    Files.writeString(file, parameters);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot write the job's parameters to a temporary file", e);
                }
                line.add("--tune=" + file);
            }
            jvmArgs.forEach(option -> line.add("--jvm-arg=" + option));
            line.addAll(launchFlags);
            if (!timeout.isZero()) {
                line.add("--timeout=" + Math.max(1, timeout.toSeconds()));
            }
            line.add("-cp");
            line.add(!classPath.isEmpty() ? String.join(java.io.File.pathSeparator, classPath)
                    : threads && mainLocation != null ? mainLocation : System.getProperty("java.class.path"));
            line.add(mainClass);
            line.addAll(args);
            return new MpiJob(line, file);
        }
    }

    private MpiJob(List<String> line, Path parameterFile) {
        this.parameterFile = parameterFile;
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        this.run = JmpiRun.of(line, quiet, quiet, new JmpiRun.Listener() {
            @Override
            public void line(int rank, boolean toStderr, String text) {
                (toStderr ? stderr : stdout).computeIfAbsent(rank, r -> Collections.synchronizedList(new ArrayList<>()))
                        .add(text);
            }

            @Override
            public void exited(int rank, int exitStatus) {
                exits.put(rank, exitStatus);
            }

            @Override
            public void stopping(String why) {
                stopReason = why;
            }
        });
        this.status = new CompletableFuture<>();
        Thread.ofPlatform().name("jmca-job").daemon().start(() -> {
            try {
                status.complete(run.call());
            } catch (Exception | Error e) {
                status.completeExceptionally(e);
            } finally {
                deleteQuietly(this.parameterFile);
            }
        });
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
        run.cancel();
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
