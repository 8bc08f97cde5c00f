package bench.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark the comparison runs: its Java class (bench.*, run by jmpirun) and its C
 * counterpart (bench/c, run by Open MPI's mpirun), with the arguments each takes.
 */
enum Benchmark {
    LATENCY("OsuLatency", "osu_latency", "latency", "us", false, true),
    BW("OsuBw", "osu_bw", "bandwidth", "MB/s", true, true),
    BIBW("OsuBibw", "osu_bibw", "bidirectional bandwidth", "MB/s", true, true),
    BCAST("OsuBcast", "osu_bcast", "bcast latency", "us", false, false),
    ALLREDUCE("OsuAllreduce", "osu_allreduce", "allreduce latency", "us", false, false),
    BARRIER("OsuBarrier", "osu_barrier", "barrier latency", "us", false, false),
    ALLTOALL("OsuAlltoall", "osu_alltoall", "alltoall latency", "us", false, false),
    APP_ALLREDUCE("AppLoop", "app_loop", "application loop: allreduce of 8 B by batch of 1000 calls from the first",
            "us", false, false),
    APP_BCAST("AppLoop", "app_loop", "application loop: bcast of 8 B by batch of 1000 calls from the first",
            "us", false, false),
    APP_BARRIER("AppLoop", "app_loop", "application loop: barrier by batch of 1000 calls from the first",
            "us", false, false),
    APP_PINGPONG("AppLoop", "app_loop", "application loop: 8 B ping-pong (one way) by batch of 1000 round trips"
            + " from the first", "us", false, true);

    /** The application loop's batches and calls per batch. */
    static final int APP_BATCHES = 10;
    static final int APP_CALLS = 1000;

    final String javaClass;
    final String cProgram;
    final String title;
    final String unit;
    final boolean higherIsBetter;
    final boolean pointToPoint;

    Benchmark(String javaClass, String cProgram, String title, String unit, boolean higherIsBetter,
              boolean pointToPoint) {
        this.javaClass = javaClass;
        this.cProgram = cProgram;
        this.title = title;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.pointToPoint = pointToPoint;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isBandwidth() {
        return higherIsBetter;
    }

    /** One call of the application loop (bench.AppLoop), whose rows are batches, not message sizes. */
    boolean isAppLoop() {
        return javaClass.equals("AppLoop");
    }

    /** What a row of the table stands for. */
    String rowLabel() {
        return isAppLoop() ? "batch" : "size (B)";
    }

    /**
     * Arguments of the Java benchmark: OSU's options; without {@code iterations}, OSU's default
     * counts; with {@code jitWarmup}, the extended JIT warm-up ({@code -J}).
     */
    List<String> javaArgs(Sizes sizes, Integer iterations, Integer warmup, boolean jitWarmup) {
        if (isAppLoop()) {
            return appLoopArgs();
        }
        List<String> args = new ArrayList<>(List.of("-m", sizes.min() + ":" + sizes.max()));
        if (iterations != null) {
            args.addAll(List.of("-i", String.valueOf(iterations), "-x", String.valueOf(warmup)));
        }
        if (jitWarmup) {
            args.add("-J");
        }
        if (isBandwidth()) {
            args.addAll(List.of("-W", "64"));
        }
        if (this == BW || this == BIBW) {
            args.addAll(List.of("-b", "direct"));
        }
        return args;
    }

    /** Arguments of the C program: MAXSIZE [ITERATIONS WARMUP [WINDOW]] (see bench/c; without them, OSU's). */
    List<String> cArgs(Sizes sizes, Integer iterations, Integer warmup) {
        if (isAppLoop()) {
            return appLoopArgs();
        }
        List<String> args = new ArrayList<>(List.of(String.valueOf(sizes.max())));
        if (iterations != null) {
            args.addAll(List.of(String.valueOf(iterations), String.valueOf(warmup)));
            if (isBandwidth()) {
                args.add("64");
            }
        }
        return args;
    }

    /** BATCHES CALLS CALL, the same for bench.AppLoop and app_loop.c. */
    private List<String> appLoopArgs() {
        return List.of(String.valueOf(APP_BATCHES), String.valueOf(APP_CALLS), id().substring("app_".length()));
    }

    /** Message sizes a run covers. */
    record Sizes(long min, long max) {
        boolean covers(long size) {
            return size >= min && size <= max;
        }
    }
}
