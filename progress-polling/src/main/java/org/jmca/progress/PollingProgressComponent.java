package org.jmca.progress;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jmca.mca.McaException;
import org.jmca.mca.os.CpuList;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;

/**
 * {@code progress/polling}: the thread inside an MPI call drives progress and waits by the
 * configured {@link WaitStrategy}. Always available.
 */
public final class PollingProgressComponent implements ProgressComponent {
    static final org.jmca.mca.Counter HELPER_TURNS = new org.jmca.mca.Counter("progress_polling_async_helper_turns",
            "progress turns of the helper thread that handled events (progress_polling_async lock)");
    static final org.jmca.mca.Counter NOTIFICATIONS = new org.jmca.mca.Counter("progress_polling_async_notifications",
            "wake-ups of the helper thread by a peer's doorbell");
    static final org.jmca.mca.Counter HANDOVERS = new org.jmca.mca.Counter("progress_polling_async_handovers",
            "times the helper thread took the ownership of progress");
    static final org.jmca.mca.Counter APPLICATION_WAITS = new org.jmca.mca.Counter(
            "progress_polling_async_application_waits", "MPI calls that waited on entry for the helper");
    static final org.jmca.mca.Counter SELF_RINGS = new org.jmca.mca.Counter("progress_polling_async_self_rings",
            "exits that woke the helper for fragments which came before the doorbell was armed");

    @Override
    public java.util.List<org.jmca.mca.Counter> counters() {
        return java.util.List.of(NOTIFICATIONS, HANDOVERS, APPLICATION_WAITS, SELF_RINGS, HELPER_TURNS);
    }

    private Param<WaitStrategy> waitStrategy;
    private Param<Long> spins;
    private Param<Long> yields;
    private Param<Long> minPark;
    private Param<Long> maxPark;
    private Param<Integer> lowPriorityInterval;
    private Param<AsyncMode> async;
    private Param<Integer> asyncNice;
    private Param<String> asyncCpus;
    private Param<Boolean> asyncRealtime;
    private Param<Long> asyncPoll;
    /** The helper's polling after a ring where it has a CPU of its own: a second. */
    private static final long AUTO_POLL_MICROS = 1_000_000;

    @Override
    public String name() {
        return "polling";
    }

    @Override
    public int defaultPriority() {
        return 10;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        waitStrategy = registrar.register(ParameterSpec.builder("wait_strategy", ParamType.enumOf(WaitStrategy.class),
                        WaitStrategy.AUTO)
                .help("How a waiting thread idles between empty progress turns: spin (lowest latency, uses a core),"
                        + " spin_yield, spin_park (frees the core, about 30 us to wake), or auto: spin while every"
                        + " local process has a core, else spin_yield.")
                .level(3)
                .build());
        spins = registrar.register(ParameterSpec.builder("spin_count", ParamType.LONG, 20L)
                .help("Empty turns spent spinning before spin_yield or spin_park start to yield. 20 turns (about a"
                        + " microsecond) serve 4 ranks on 2 cores best since collectives go through coll/sm: 50"
                        + " kept a core from the rank waited for (allreduce 7.7-10.6 us, barrier 8.7-9.1 against"
                        + " 7.0 and 5.7-6.6), 0 yielded inside every ping-pong (3.2-3.4 us against 0.75-1.4).")
                .level(5)
                .build());
        yields = registrar.register(ParameterSpec.builder("yield_count", ParamType.LONG, 100L)
                .help("Empty turns spent yielding before spin_park starts to park.")
                .level(5)
                .build());
        minPark = registrar.register(ParameterSpec.builder("park_min_ns", ParamType.LONG, 1_000L)
                .help("First park period of spin_park, in nanoseconds; it doubles up to park_max_ns.")
                .level(6)
                .build());
        maxPark = registrar.register(ParameterSpec.builder("park_max_ns", ParamType.LONG, 1_000_000L)
                .help("Longest park period of spin_park, in nanoseconds.")
                .level(6)
                .build());
        lowPriorityInterval = registrar.register(ParameterSpec.builder("low_priority_interval", ParamType.INT, 8)
                .help("Low-priority progress callbacks run once every this many turns (Open MPI uses 8).")
                .level(7)
                .build());
        registerAsyncParameters(registrar);
        registerPlacementParameter(registrar);
    }

    private void registerAsyncParameters(ParameterRegistrar registrar) {
        async = registrar.register(ParameterSpec.builder("async", ParamType.enumOf(AsyncMode.class), AsyncMode.OFF)
                .help("Progress while the application computes: off (only inside MPI calls); lockfree (a helper"
                        + " thread sleeps until a peer announces a rendezvous to a posted receive, takes progress"
                        + " over with one compare-and-set and reads the message; needs btl/sm); lock (baseline:"
                        + " a helper thread polls all the time under a lock the MPI calls also take).")
                .level(3)
                .build());
        asyncNice = registrar.register(ParameterSpec.builder("async_nice", ParamType.INT, 0)
                .help("Niceness of the helper thread, -20 (highest priority; needs CAP_SYS_NICE) to 19 (lowest);"
                        + " 0 keeps the process's. Set with setpriority(2): Java thread priorities do nothing on Linux.")
                .level(5)
                .build());
        asyncCpus = registrar.register(ParameterSpec.builder("async_cpus", ParamType.STRING, "")
                .help("CPUs for the helper threads, as taskset writes them (\"1,0\" or \"4-7\"): the helper of"
                        + " the n-th process on a host is bound to the n-th CPU of the list (cycling). Empty: the"
                        + " spare CPUs, those after the first one per local process that --bind-to core gives the"
                        + " ranks (the n-th helper on the n-th spare CPU, cycling); with none spare, any CPU of the"
                        + " process.")
                .level(5)
                .build());
    }

    private void registerPlacementParameter(ParameterRegistrar registrar) {
        asyncPoll = registrar.register(ParameterSpec.builder("async_poll_us", ParamType.LONG, -1L)
                .help("How long, in microseconds, the helper thread polls its doorbell after serving a ring before"
                        + " it sleeps in the kernel. -1 (auto): a second where the helper has a CPU of its own (no"
                        + " rank and no other helper of the host placed there), else 0. Polling spares the wake-up of"
                        + " a thread asleep on an idle core, tens of microseconds that vary with the host.")
                .level(5)
                .build());
        asyncRealtime = registrar.register(ParameterSpec.builder("async_realtime", ParamType.BOOL, false)
                .help("Run the helper thread under SCHED_FIFO (needs CAP_SYS_NICE): a peer's ring then preempts"
                        + " whatever runs on the helper's CPU at once, instead of after the scheduler's delay.")
                .level(5)
                .build());
    }

    @Override
    public ProgressEngine createEngine(ProgressEnvironment environment) {
        WaitStrategy strategy = waitStrategy.get().resolve(environment);
        if (minPark.get() <= 0 || maxPark.get() < minPark.get()) {
            throw minPark.invalid("must be positive and at most " + maxPark);
        }
        if (async.get() != AsyncMode.OFF && environment.oversubscribed() && environment.localRank() == 0) {
            System.err.println("jmca: warning: progress_polling_async=" + async.get().name().toLowerCase(Locale.ROOT)
                    + " with " + environment.localProcesses() + " processes on " + environment.availableCores()
                    + " cores: the helper threads have no spare core and take their time from the computation");
        }
        return new PollingProgressEngine(strategy,
                strategy.idleStrategy(spins.get(), yields.get(), minPark.get(), maxPark.get()),
                lowPriorityInterval.get(), async.get(), helperPlacement(environment));
    }

    private HelperThread.Placement helperPlacement(ProgressEnvironment environment) {
        if (asyncNice.get() < -20 || asyncNice.get() > 19) {
            throw asyncNice.invalid("must be between -20 and 19");
        }
        int[] cpus;
        try {
            cpus = CpuList.parse(asyncCpus.get());
        } catch (IllegalArgumentException e) {
            throw new McaException("" + asyncCpus + ": " + e.getMessage());
        }
        HelperCore core = HelperCore.choose(environment.cpus(), environment.localProcesses(), environment.localRank(),
                cpus);
        if (asyncPoll.get() < -1) {
            throw asyncPoll.invalid("must be -1 (auto) or at least 0");
        }
        long pollMicros = asyncPoll.get() >= 0 ? asyncPoll.get() : core.alone() ? AUTO_POLL_MICROS : 0;
        return new HelperThread.Placement(asyncNice.get(), core.cpus(), asyncRealtime.get(),
                TimeUnit.MICROSECONDS.toNanos(pollMicros));
    }
}
