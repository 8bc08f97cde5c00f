package org.jmca.tune;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * The MPI program a tuning job runs: measures the points of its plan in order, each as OSU's
 * collective tests do (warm-up calls, then timed calls each after a barrier; each rank's average;
 * rank 0 prints the average over the ranks), on a duplicate of MPI_COMM_WORLD whose info keys
 * force the point's algorithm. Rank 0 prints {@code POINT index micros} or {@code FAILED index
 * why} for each, as it goes, and {@code WARMED configuration} as its warm-up goes.
 *
 * <p>Before the first timed point, every configuration of the plan runs {@code JIT_WARMUP} untimed
 * calls at its collective's smallest size and a fortieth of that at its largest; then passes at the
 * smallest sizes alone, until one in which no rank's JIT compiled for more than
 * {@value #QUIET_MILLIS} ms, or {@value #MAX_PASSES} passes, or {@value #BUDGET_SECONDS} s.
 * Without it the configurations measured first pay for the JIT's work on what all share, and on 2
 * cores its compiler threads take the ranks' cores: the same 8-byte allreduce then measured 10 to
 * 70 us in one job's first seconds against 5 after.
 *
 * <p>Usage: {@code TunePoints COMPONENT PLAN ITERATIONS WARMUP LARGE_ITERATIONS LARGE_WARMUP
 * JIT_WARMUP}; a plan line is {@code index collective config size}. Sizes above 8 KiB take the
 * large counts, as in OSU.
 */
public final class TunePoints {
    /** OSU's LARGE_MESSAGE_SIZE: from here the smaller iteration counts apply. */
    static final long LARGE = 8192;
    /** A warm-up pass that compiled no longer than this, at every rank, ends the warm-up. */
    static final long QUIET_MILLIS = 20;
    static final int MAX_PASSES = 10;
    static final int BUDGET_SECONDS = 30;

    private TunePoints() {
    }

    record Planned(int index, TunedCollective collective, Config config, long size) {
        /** The plan's line for this point. */
        String line() {
            return index + " " + collective.configName() + " " + config.key() + " " + size;
        }

        static Planned parse(String line) {
            String[] f = line.strip().split(" ");
            return new Planned(Integer.parseInt(f[0]), TunedCollective.byName(f[1]).orElseThrow(),
                    Config.parse(f[2]), Long.parseLong(f[3]));
        }
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        Component component = Component.of(args[0]);
        List<Planned> plan = Files.readAllLines(Path.of(args[1])).stream().filter(l -> !l.isBlank())
                .map(Planned::parse).toList();
        int[] counts = {Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                Integer.parseInt(args[5])};
        int rank = MPI.COMM_WORLD.getRank();
        int ranks = MPI.COMM_WORLD.getSize();
        long largest = plan.stream().mapToLong(Planned::size).max().orElse(0);
        Buffers buffers = new Buffers((int) largest, ranks);
        Map<String, Intracomm> communicators = new HashMap<>();
        int jitWarmup = Integer.parseInt(args[6]);
        Map<String, long[]> extremes = new java.util.LinkedHashMap<>(); // per configuration: smallest, largest size
        for (Planned point : plan) {
            extremes.merge(forcing(point), new long[] {point.size(), point.size()},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long deadline = System.nanoTime() + BUDGET_SECONDS * 1_000_000_000L;
        for (int pass = 0; pass < MAX_PASSES && jitWarmup > 0; pass++) {
            long before = jit.getTotalCompilationTime();
            boolean first = pass == 0;
            for (Planned point : plan) {
                long[] sizes = extremes.get(forcing(point));
                if (point.size() != sizes[0]) {
                    continue; // once per configuration
                }
                Intracomm comm = communicators.computeIfAbsent(forcing(point), k -> forced(component, point));
                try {
                    measure(comm, point, buffers, 0, jitWarmup);
                    if (first) {
                        measure(comm, new Planned(point.index(), point.collective(), point.config(), sizes[1]),
                                buffers, 0, Math.max(1, jitWarmup / 40));
                    }
                } catch (MPIException | RuntimeException e) {
                    // its timed points will fail alike and say why
                }
                if (rank == 0) { // a sign of life for jmca-tune's stall limit, which a slow warm-up would reach
                    System.out.println("WARMED " + forcing(point));
                    System.out.flush();
                }
            }
            int[] compiling = {jit.getTotalCompilationTime() - before > QUIET_MILLIS
                    && System.nanoTime() < deadline ? 1 : 0};
            MPI.COMM_WORLD.allReduce(compiling, 1, MPI.INT, MPI.MAX);
            if (compiling[0] == 0) {
                break;
            }
        }
        for (Planned point : plan) {
            Intracomm comm = communicators.computeIfAbsent(forcing(point), k -> forced(component, point));
            boolean large = point.size() > LARGE;
            String outcome;
            try {
                double micros = measure(comm, point, buffers, counts[large ? 2 : 0], counts[large ? 3 : 1]);
                outcome = "POINT " + point.index() + " " + micros;
            } catch (MPIException | RuntimeException e) {
                outcome = "FAILED " + point.index() + " " + String.valueOf(e.getMessage()).replace('\n', ' ');
            }
            if (rank == 0) {
                System.out.println(outcome);
                System.out.flush();
            }
        }
        for (Intracomm comm : communicators.values()) {
            comm.free();
        }
        MPI.Finalize();
    }

    /** What a point's communicator forces: one communicator serves all points of a configuration. */
    private static String forcing(Planned point) {
        return point.collective().configName() + " " + point.config().key();
    }

    /** A duplicate of MPI_COMM_WORLD whose info keys force the point's configuration, errors returned. */
    private static Intracomm forced(Component component, Planned point) {
        try {
            Info info = new Info();
            for (Map.Entry<String, String> hint : component.hints(point.collective(), point.config()).entrySet()) {
                info.set(hint.getKey(), hint.getValue());
            }
            Intracomm comm = MPI.COMM_WORLD.dupWithInfo(info);
            info.free();
            comm.setErrhandler(MPI.ERRORS_RETURN);
            return comm;
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The buffers of the largest point, shared by all: bytes for data movement, floats for reductions. */
    private record Buffers(byte[] send, byte[] recv, float[] operands, float[] results) {
        Buffers(int largest, int ranks) {
            this(new byte[Math.max(1, largest) * ranks], new byte[Math.max(1, largest) * ranks],
                    new float[Math.max(1, largest / Float.BYTES) * ranks],
                    new float[Math.max(1, largest / Float.BYTES) * ranks]);
        }
    }

    /** OSU's loop; the average over the ranks of each rank's average time per call, in microseconds. */
    private static double measure(Intracomm comm, Planned point, Buffers b, int iterations, int warmup)
            throws MPIException {
        int bytes = (int) point.size();
        int floats = bytes / Float.BYTES;
        double timer = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            comm.barrier();
            double start = MPI.wtime();
            switch (point.collective()) {
                case BCAST -> comm.bcast(b.send(), bytes, MPI.BYTE, 0);
                case ALLREDUCE -> comm.allReduce(b.operands(), b.results(), floats, MPI.FLOAT, MPI.SUM);
                case REDUCE -> comm.reduce(b.operands(), b.results(), floats, MPI.FLOAT, MPI.SUM, 0);
                case ALLGATHER -> comm.allGather(b.send(), bytes, MPI.BYTE, b.recv(), bytes, MPI.BYTE);
                case ALLTOALL -> comm.allToAll(b.send(), bytes, MPI.BYTE, b.recv(), bytes, MPI.BYTE);
                case GATHER -> comm.gather(b.send(), bytes, MPI.BYTE, b.recv(), bytes, MPI.BYTE, 0);
                case SCATTER -> comm.scatter(b.send(), bytes, MPI.BYTE, b.recv(), bytes, MPI.BYTE, 0);
                case REDUCE_SCATTER_BLOCK -> comm.reduceScatterBlock(b.operands(), b.results(), floats, MPI.FLOAT,
                        MPI.SUM);
                case BARRIER -> comm.barrier();
                default -> throw new IllegalArgumentException("jmca-tune does not measure "
                        + point.collective().configName());
            }
            double stop = MPI.wtime();
            if (i >= warmup) {
                timer += stop - start;
            }
        }
        if (iterations == 0) {
            return 0; // a warm-up
        }
        double[] mine = {timer * 1e6 / iterations};
        double[] sum = new double[1];
        comm.allReduce(mine, sum, 1, MPI.DOUBLE, MPI.SUM);
        return sum[0] / comm.getSize();
    }
}
