package org.jmca.rte.launcher;

import java.io.IOException;
import java.net.URL;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jmca.rte.EmbeddedWireUp;
import org.jmca.rte.PeerRecord;
import org.jmca.rte.ThreadWireUp;
import org.jmca.rte.WireUpException;

/**
 * A job whose ranks are threads of this JVM ({@code jmpirun --ranks-as threads}, the launch API,
 * the JUnit extension): each rank runs in its own {@link RankClassLoader}, so the {@code mpi}
 * package's statics and the application's are the rank's; the ranks wire up through this object
 * ({@link ThreadWireUp}) and talk through {@code btl/thread}. It ends as jmpirun's jobs do: when
 * every rank has finished, or at the first rank that fails (an exception, a non-zero exit, an
 * abort, returning without {@code MPI.Finalize} after {@code MPI.Init}), which the others learn at
 * their next MPI call. Nothing of the job stays behind in the JVM: its threads have ended (a rank
 * busy outside MPI is interrupted, and named if it still runs), its class loaders and their
 * classes can be collected.
 */
public final class ThreadJob implements ThreadWireUp.Job {
    /**
     * In a thread rank's environment: the program's main class, which MPI.INFO_ENV's "command"
     * gives, as it does for a rank process, whose java command line names it.
     */
    public static final String ENV_COMMAND = "JMCA_COMMAND";
    /** How long the other ranks may take to stop once the job is ending, before they are interrupted. */
    private static final long GRACE_MILLIS = 2000;

    /** What a rank runs, given its class loader. */
    @FunctionalInterface
    public interface RankBody {
        void run(int rank, ClassLoader loader) throws Throwable;
    }

    private final int size;
    private final List<URL> applicationPath;
    private final Map<String, String> environment;
    private final long wireupTimeoutMillis;
    private final RankBody body;
    private final Launcher.Listener listener;
    private final String jobId;
    private final String keyHex;
    private final ConcurrentMap<String, Object> shared = new ConcurrentHashMap<>();
    private final CountDownLatch finished;
    /**
     * The ranks' lines until the job is ending: then the others only echo its cause, and a process
     * rank would have been killed before it could.
     */
    private final Launcher.Listener untilEnding = new Launcher.Listener() {
        @Override
        public void line(int rank, boolean stderr, String line) {
            if (ending == null) {
                listener.line(rank, stderr, line);
            }
        }

        @Override
        public void exited(int rank, int status) {
            listener.exited(rank, status);
        }

        @Override
        public void stopping(String why) {
            listener.stopping(why);
        }
    };
    private final Thread[] threads;
    private volatile boolean cancelled;
    private Thread cleanUp;

    // Guarded by this.
    private PeerRecord[] arrivals;
    private List<PeerRecord> exchanged;
    private int arrived;
    private int generation;
    private final boolean[] joined;
    private final boolean[] finalizedRanks;
    private volatile String ending;
    private int status;

    /**
     * @param applicationPath the program's class path: its classes are defined again for each rank
     * @param environment     variables every rank sees besides this JVM's (jmpirun's -x, --mca, --tune)
     * @param listener        told each rank's lines, exits and the reason the job stops
     */
    public ThreadJob(int size, List<URL> applicationPath, Map<String, String> environment, Duration wireupTimeout,
                     RankBody body, Launcher.Listener listener) {
        if (size < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + size);
        }
        this.size = size;
        this.applicationPath = List.copyOf(applicationPath);
        this.environment = Map.copyOf(environment);
        this.wireupTimeoutMillis = wireupTimeout.toMillis();
        this.body = body;
        this.listener = listener;
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        this.keyHex = HexFormat.of().formatHex(key);
        this.jobId = "jmca-t" + ProcessHandle.current().pid() + "-" + keyHex.substring(0, 8);
        this.finished = new CountDownLatch(size);
        this.threads = new Thread[size];
        this.arrivals = new PeerRecord[size];
        this.joined = new boolean[size];
        this.finalizedRanks = new boolean[size];
    }

    /**
     * A body that runs {@code className}'s main method with {@code args}, chosen and called as the
     * {@code java} launcher would ({@link MainMethod}).
     */
    public static RankBody main(String className, List<String> args) {
        String[] arguments = args.toArray(String[]::new);
        return (rank, loader) -> {
            Class<?> type;
            try {
                type = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                throw new MainMethod.NotRunnable("Could not find or load main class " + className);
            }
            MainMethod.of(type).run(arguments.clone());
        };
    }

    /**
     * Runs the job to its end and returns its status: 0 when every rank finished, else the failed
     * rank's ({@link Launcher}'s statuses for a time limit and a cancel).
     *
     * @param timeout how long the job may run (zero: no limit)
     */
    public int run(Duration timeout) throws InterruptedException {
        SessionDirectory session = SessionDirectory.create(jobId);
        // A signal ends the JVM and its thread ranks with it: their files go too.
        cleanUp = new Thread(session::remove, "jmca-thread-job-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        ThreadWireUp.register(jobId, this);
        RankStreams.install();
        List<RankClassLoader> loaders = new ArrayList<>();
        try {
            for (int rank = 0; rank < size; rank++) {
                int r = rank;
                RankClassLoader loader = new RankClassLoader(rank, applicationPath, getClass().getClassLoader(),
                        rankEnvironment(rank, session), exitStatus -> {
                            if (exitStatus != 0) {
                                fail("rank " + r + " called System.exit(" + exitStatus + ")", exitStatus);
                            }
                        });
                loaders.add(loader);
                RankStreams.Rank output = new RankStreams.Rank(rank, untilEnding);
                threads[rank] = Thread.ofPlatform().name("jmca-rank-" + rank).daemon().unstarted(() -> {
                    RankStreams.attach(output);
                    try {
                        runRank(r, loader, output);
                    } finally {
                        RankStreams.detach();
                        // a thread that ended keeps its context loader: it must not pin the rank's classes
                        Thread.currentThread().setContextClassLoader(null);
                        finished.countDown();
                    }
                });
                threads[rank].setContextClassLoader(loader);
            }
            for (Thread thread : threads) {
                thread.start();
            }
            supervise(timeout);
            synchronized (this) {
                return status;
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook removes the directory
            }
            Arrays.fill(threads, null);
            ThreadWireUp.unregister(jobId);
            RankStreams.uninstall();
            for (RankClassLoader loader : loaders) {
                try {
                    loader.close();
                } catch (IOException ignored) {
                    // the jars stay open until collected
                }
            }
            shared.clear();
            session.remove();
        }
    }

    private Map<String, String> rankEnvironment(int rank, SessionDirectory session) {
        Map<String, String> env = new HashMap<>(System.getenv());
        // were this JVM a rank of another job, its ranks are not: none of that job's wire-up
        env.keySet().removeIf(name -> name.startsWith("PMIX_") || name.equals(EmbeddedWireUp.ENV_SERVER)
                || name.equals("JMCA_PARENT_PORT"));
        env.putAll(environment);
        env.put(ThreadWireUp.ENV_JOB, jobId);
        env.put(EmbeddedWireUp.ENV_RANK, String.valueOf(rank));
        env.put(EmbeddedWireUp.ENV_SIZE, String.valueOf(size));
        env.put(EmbeddedWireUp.ENV_LOCAL_SIZE, String.valueOf(size));
        env.put(EmbeddedWireUp.ENV_LOCAL_RANK, String.valueOf(rank));
        env.put(EmbeddedWireUp.ENV_JOB_ID, jobId);
        env.put(EmbeddedWireUp.ENV_JOB_KEY, keyHex);
        env.put(EmbeddedWireUp.ENV_SESSION_DIR, session.path().toString());
        return env;
    }

    /** Runs rank {@code rank}'s body; what it wrote is told before how it ended (which may end the job). */
    private void runRank(int rank, ClassLoader loader, RankStreams.Rank output) {
        try {
            body.run(rank, loader);
            output.flush();
            ended(rank, 0);
        } catch (RankSystem.RankExit exit) {
            output.flush();
            ended(rank, exit.status());
        } catch (MainMethod.NotRunnable notRunnable) { // as java says it, without a stack trace
            System.err.println("Error: " + notRunnable.getMessage());
            output.flush();
            listener.exited(rank, 1);
            fail("rank " + rank + ": " + notRunnable.getMessage(), 1);
        } catch (Throwable failure) {
            failure.printStackTrace(); // into the rank's own stderr: this thread writes as the rank
            output.flush();
            listener.exited(rank, 1);
            fail("rank " + rank + " threw " + failure, 1);
        }
    }

    private void ended(int rank, int exitStatus) {
        listener.exited(rank, exitStatus);
        boolean withoutFinalize;
        synchronized (this) {
            withoutFinalize = joined[rank] && !finalizedRanks[rank];
        }
        if (exitStatus != 0) {
            fail("rank " + rank + " called System.exit(" + exitStatus + ")", exitStatus);
        } else if (withoutFinalize) {
            fail("rank " + rank + " returned without calling MPI.Finalize", 1);
        }
    }

    /** The job ends because of {@code why}, unless it already is for an earlier reason. */
    private void fail(String why, int failureStatus) {
        synchronized (this) {
            if (ending != null) {
                return;
            }
            ending = why;
            status = failureStatus;
            notifyAll();
        }
        listener.stopping(why);
    }

    private void supervise(Duration timeout) throws InterruptedException {
        long deadline = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        while (!finished.await(50, TimeUnit.MILLISECONDS)) {
            if (ending != null) {
                break;
            }
            if (cancelled) {
                fail("the job was cancelled", Launcher.CANCELLED);
            } else if (System.nanoTime() > deadline) {
                fail("the job ran longer than " + timeout.toSeconds() + " s", Launcher.TIMED_OUT);
            }
        }
        if (finished.await(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
            return;
        }
        // Ranks busy outside MPI do not see the end: interrupt them, then name those that still run.
        Arrays.stream(threads).filter(Thread::isAlive).forEach(Thread::interrupt);
        if (!finished.await(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
            String running = IntStream.range(0, size).filter(r -> threads[r].isAlive()).mapToObj(String::valueOf)
                    .collect(Collectors.joining(", "));
            listener.stopping("rank(s) " + running + " did not stop within " + 2 * GRACE_MILLIS / 1000
                    + " s (a thread cannot be killed: they go on in this JVM)");
        }
    }

    /** Where each rank that still runs is now (for a report of a job that hangs). */
    public Map<Integer, StackTraceElement[]> stacks() {
        Map<Integer, StackTraceElement[]> stacks = new TreeMap<>();
        for (int rank = 0; rank < size; rank++) {
            Thread thread = threads[rank];
            if (thread != null && thread.isAlive()) {
                stacks.put(rank, thread.getStackTrace());
            }
        }
        return stacks;
    }

    /** Ends the job as soon as its ranks next call MPI (status 130). */
    public void cancel() {
        cancelled = true;
    }

    // ---- the ranks' wire-up (ThreadWireUp) --------------------------------------------------

    @Override
    public synchronized List<PeerRecord> exchange(int rank, String hostname, Map<String, String> values) {
        int mine = generation;
        joined[rank] = true;
        arrivals[rank] = new PeerRecord(rank, hostname, values);
        if (++arrived == size) {
            exchanged = List.of(arrivals);
            arrivals = new PeerRecord[size];
            arrived = 0;
            generation++;
            notifyAll();
            return exchanged;
        }
        long deadline = System.currentTimeMillis() + wireupTimeoutMillis;
        while (generation == mine) {
            if (ending != null) {
                throw new WireUpException("rank " + rank + ": the job is ending: " + ending);
            }
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                String missing = IntStream.range(0, size).filter(r -> arrivals[r] == null).mapToObj(String::valueOf)
                        .collect(Collectors.joining(", "));
                String why = "rank(s) " + missing + " did not reach MPI.Init's wire-up exchange within "
                        + wireupTimeoutMillis / 1000 + " s";
                fail(why, 1);
                throw new WireUpException("rank " + rank + ": " + why);
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WireUpException("rank " + rank + " was interrupted in MPI.Init's wire-up exchange", e);
            }
        }
        return exchanged;
    }

    @Override
    public synchronized void finalized(int rank) {
        finalizedRanks[rank] = true;
    }

    @Override
    public void abort(int rank, int code, String message) {
        fail("rank " + rank + " aborted the job with error code " + code + ": " + message, code == 0 ? 1 : code);
    }

    @Override
    public String ending() {
        return ending;
    }

    @Override
    public ConcurrentMap<String, Object> shared() {
        return shared;
    }
}
