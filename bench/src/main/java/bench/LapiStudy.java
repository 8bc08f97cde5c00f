package bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.jmca.common.lapi.Lapi;
import org.jmca.common.lapi.LapiCounter;

/**
 * The LAPI performance study's measurements (Welcome, NERSC, 2001), on btl/lapi's LAPI context,
 * between task 0 (the origin, which measures) and task 1 (the target). Run it with
 * {@code jmpirun -np 2 --mca btl self,lapi --mca btl_lapi_device emulated --mca btl_lapi_mode MODE}.
 *
 * <ul>
 *   <li>{@code latency}: put and get of each size, timed from the call to the completion counter's
 *       increment, waiting with {@code LAPI_Waitcntr} (W) or a {@code LAPI_Getcntr}/{@code LAPI_Probe}
 *       loop (P); the study's "latency" (a round trip: the data out, the acknowledgement back) and
 *       its bandwidth, size over that time. Lines: {@code latency OP WAIT SIZE US MB/S}, and per
 *       way of waiting {@code counters OP WAIT INTERRUPTS DECLINED}: the origin's notification
 *       thread's wake-ups per operation, and those that found the dispatcher taken.</li>
 *   <li>{@code qdepth}: Q_Depth gets issued at once, then all waited for; the effective latency
 *       (time per get) and bandwidth, Q_Depth 1 to 16. Lines: {@code qdepth Q SIZE US MB/S}.</li>
 *   <li>{@code overlap}: the study's pseudo-code: Num_Iter gets, Q_Depth in flight, a floating-point
 *       loop of N_Float times Fill_Level between reaps; the effective latency against the loop's
 *       time. Lines: {@code overlap Q SIZE N_FLOAT COMPUTE_US US}.</li>
 * </ul>
 *
 * Each point is timed from its first timed call, after OSU's default warm-up (100 untimed
 * iterations, 10 above 8 KiB). The target waits in {@code LAPI_Waitcntr} for the origin's last
 * put, so in polling mode it answers from inside that call; with {@code --idle-target} it sleeps
 * instead, and only LAPI's own threads (interrupt and lockfree modes) answer.
 */
public final class LapiStudy {
    /** The study's sizes: 2, 8, 60, 1168, 14337, 61639, 127812 bytes, with 4 KiB added. */
    static final int[] SIZES = {2, 8, 60, 1168, 4096, 14337, 61639, 127812};
    private static final int LARGE = 8192;
    /** The overlap test's N_Float values: about 0 to 40 us of computation per issue here. */
    static final long[] N_FLOATS = {0, 250, 500, 1000, 1500, 2500, 4000, 6000, 10_000, 20_000};
    private static double sink;

    private LapiStudy() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        List<String> tests = new ArrayList<>();
        boolean idleTarget = false;
        int numIter = 10_000;
        for (String arg : args) {
            if (arg.equals("--idle-target")) {
                idleTarget = true;
            } else if (arg.startsWith("--num-iter=")) {
                numIter = Integer.parseInt(arg.substring("--num-iter=".length()));
            } else {
                tests.add(arg);
            }
        }
        Lapi lapi = Lapi.published().orElseThrow(() -> new IllegalStateException(
                "btl/lapi is not running: run with --mca btl self,lapi --mca btl_lapi_device emulated"));
        if (lapi.tasks() != 2) {
            throw new IllegalStateException("the study runs on 2 tasks, not " + lapi.tasks());
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(SIZES[SIZES.length - 1] * 16L, 64);
            MemorySegment local = arena.allocate(SIZES[SIZES.length - 1] * 16L, 64);
            long[] windows = lapi.addressInit(window);
            LapiCounter done = lapi.newCounter();
            long[] doneAt = lapi.addressInit(done);
            if (lapi.task() == 0) {
                Origin origin = new Origin(lapi, windows[1], local);
                System.out.println("# mode " + lapi.mode().name().toLowerCase() + (idleTarget ? ", idle target" : ""));
                for (String test : tests.isEmpty() ? List.of("latency", "qdepth", "overlap") : tests) {
                    switch (test) {
                        case "latency" -> origin.latency();
                        case "qdepth" -> origin.queueDepth();
                        case "overlap" -> origin.overlap(numIter);
                        default -> throw new IllegalArgumentException("unknown test " + test
                                + "; the tests are latency, qdepth, overlap");
                    }
                }
                LapiCounter sent = lapi.newCounter();
                lapi.put(1, windows[1], local.asSlice(0, 8), doneAt[1], null, sent);
                lapi.waitcntr(sent, 1);
            } else if (idleTarget) {
                while (lapi.getcntr(done) == 0) {
                    sleep();
                }
            } else {
                lapi.waitcntr(done, 1);
            }
            lapi.gfence();
        }
        for (var v : MPI.performanceVariables()) {
            if (v.name().startsWith("btl_lapi_")) {
                System.out.println("# task " + lapi.task() + " " + v.name() + " " + v.value());
            }
        }
        MPI.Finalize();
    }

    private static void sleep() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The time of {@code cpuLoop(n)}, in microseconds: the loop compiled first, then the median
     * of 11 measurements, each of enough calls to last about 2 ms.
     */
    static double cpuMicros(long n) {
        for (int i = 0; i < 200; i++) {
            cpuLoop(50_000);
        }
        if (n == 0) {
            return 0;
        }
        int reps = (int) Math.max(1, 2_000_000 / n);
        double[] runs = new double[11];
        for (int r = 0; r < runs.length; r++) {
            long t = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                cpuLoop(n);
            }
            runs[r] = (System.nanoTime() - t) / 1e3 / reps;
        }
        Arrays.sort(runs);
        return runs[runs.length / 2];
    }

    /** The floating-point loop of the overlap test: {@code n} dependent multiply-adds the JIT cannot drop. */
    static void cpuLoop(long n) {
        double x = sink;
        for (long i = 0; i < n; i++) {
            x = x * 1.000000001 + 1e-12;
        }
        sink = x;
    }

    /** The measuring side. */
    private static final class Origin {
        private final Lapi lapi;
        private final long target;
        private final MemorySegment local;
        private final LapiCounter completion;
        private long expected;

        Origin(Lapi lapi, long target, MemorySegment local) {
            this.lapi = lapi;
            this.target = target;
            this.local = local;
            this.completion = lapi.newCounter();
        }

        /** A btl/lapi counter of this task (0 in a mode that does not keep it). */
        private static long counter(String name) {
            try {
                return MPI.performanceVariables().stream().filter(v -> v.name().equals(name))
                        .mapToLong(mpi.PerformanceVariable::value).findFirst().orElse(0);
            } catch (MPIException e) {
                throw new IllegalStateException(e);
            }
        }

        private void issue(boolean put, int size) {
            if (put) {
                lapi.put(1, target, local.asSlice(0, size), Lapi.NO_COUNTER, null, completion);
            } else {
                lapi.get(1, target, local.asSlice(0, size), Lapi.NO_COUNTER, completion);
            }
        }

        /** LAPI_Waitcntr, or a LAPI_Getcntr/LAPI_Probe loop until the counter has counted one more. */
        private void await(boolean waitcntr) {
            if (waitcntr) {
                lapi.waitcntr(completion, 1);
                return;
            }
            expected++;
            while (lapi.getcntr(completion) < expected) {
                lapi.probe();
            }
        }

        void latency() {
            for (boolean put : new boolean[] {true, false}) {
                for (boolean waitcntr : new boolean[] {true, false}) {
                    lapi.setcntr(completion, 0);
                    expected = 0;
                    long interrupts = counter("btl_lapi_interrupts");
                    long declined = counter("btl_lapi_declined");
                    long operations = 0;
                    for (int size : SIZES) {
                        int skip = size > LARGE ? 10 : 100;
                        int iterations = size > LARGE ? 1000 : 10_000;
                        for (int i = 0; i < skip; i++) {
                            issue(put, size);
                            await(waitcntr);
                        }
                        long start = System.nanoTime();
                        for (int i = 0; i < iterations; i++) {
                            issue(put, size);
                            await(waitcntr);
                        }
                        double us = (System.nanoTime() - start) / 1e3 / iterations;
                        System.out.printf("latency %s %s %d %.2f %.1f%n", put ? "put" : "get", waitcntr ? "W" : "P",
                                size, us, size / us);
                        operations += skip + iterations;
                    }
                    // how often the origin's notification thread woke, and found the dispatcher taken
                    System.out.printf("counters %s %s %.3f %.3f%n", put ? "put" : "get", waitcntr ? "W" : "P",
                            (counter("btl_lapi_interrupts") - interrupts) / (double) operations,
                            (counter("btl_lapi_declined") - declined) / (double) operations);
                }
            }
        }

        void queueDepth() {
            lapi.setcntr(completion, 0);
            for (int size : new int[] {8, 14337}) {
                for (int q = 1; q <= 16; q++) {
                    int batches = size > LARGE ? 200 : 2000;
                    for (int i = 0; i < batches / 10; i++) {
                        batch(q, size);
                    }
                    long start = System.nanoTime();
                    for (int i = 0; i < batches; i++) {
                        batch(q, size);
                    }
                    double us = (System.nanoTime() - start) / 1e3 / ((double) batches * q);
                    System.out.printf("qdepth %d %d %.2f %.1f%n", q, size, us, size / us);
                }
            }
        }

        private void batch(int q, int size) {
            for (int i = 0; i < q; i++) {
                lapi.get(1, target + (long) i * size, local.asSlice((long) i * size, size), Lapi.NO_COUNTER,
                        completion);
            }
            lapi.waitcntr(completion, q);
        }

        void overlap(int numIter) {
            long[] nFloats = N_FLOATS;
            double[] computeUs = new double[nFloats.length];
            for (int i = 0; i < nFloats.length; i++) {
                computeUs[i] = cpuMicros(nFloats[i]);
            }
            for (int size : new int[] {8, 5211}) {
                for (int q : new int[] {1, 2, 4, 8}) {
                    overlapPoint(numIter / 10, q, size, 0); // OSU-style warm-up of this configuration
                    for (int i = 0; i < nFloats.length; i++) {
                        double us = overlapPoint(numIter, q, size, nFloats[i]);
                        System.out.printf("overlap %d %d %d %.2f %.2f%n", q, size, nFloats[i], computeUs[i], us);
                    }
                }
            }
        }

        /** The study's pseudo-code, with gets; returns the effective latency in microseconds. */
        private double overlapPoint(int numIter, int qDepth, int size, long nFloat) {
            lapi.setcntr(completion, 0);
            int fillLevel = (qDepth + 1) / 2;
            long flops = 0;
            long start = System.nanoTime();
            int slot = 0;
            for (int i = 0; i < qDepth; i++) {
                getInto(slot++ % 16, size);
            }
            int issued = qDepth;
            while (issued < numIter) {
                cpuLoop(nFloat * fillLevel);
                flops += fillLevel;
                int toIssue = Math.min(numIter - issued, fillLevel);
                for (int i = 0; i < toIssue; i++) { // reap one, reissue one
                    lapi.waitcntr(completion, 1);
                    getInto(slot++ % 16, size);
                }
                issued += toIssue;
            }
            cpuLoop(nFloat * (numIter - flops));
            lapi.waitcntr(completion, qDepth);
            return (System.nanoTime() - start) / 1e3 / numIter;
        }

        private void getInto(int slot, int size) {
            lapi.get(1, target + (long) slot * size, local.asSlice((long) slot * size, size), Lapi.NO_COUNTER,
                    completion);
        }

    }
}
