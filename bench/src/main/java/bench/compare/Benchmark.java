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
    ALLTOALL("OsuAlltoall", "osu_alltoall", "alltoall latency", "us", false, false);

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

    /** Arguments of the Java benchmark: OSU's options. */
    List<String> javaArgs(Sizes sizes, int iterations, int warmup) {
        List<String> args = new ArrayList<>(List.of("-m", sizes.min() + ":" + sizes.max(), "-i",
                String.valueOf(iterations), "-x", String.valueOf(warmup)));
        if (isBandwidth()) {
            args.addAll(List.of("-W", "64"));
        }
        if (this == BW || this == BIBW) {
            args.addAll(List.of("-b", "direct"));
        }
        return args;
    }

    /** Arguments of the C program: MAXSIZE ITERATIONS WARMUP [WINDOW] (see bench/c). */
    List<String> cArgs(Sizes sizes, int iterations, int warmup) {
        List<String> args = new ArrayList<>(List.of(String.valueOf(sizes.max()), String.valueOf(iterations),
                String.valueOf(warmup)));
        if (isBandwidth()) {
            args.add("64");
        }
        return args;
    }

    /** Message sizes a run covers. */
    record Sizes(long min, long max) {
        boolean covers(long size) {
            return size >= min && size <= max;
        }
    }
}
