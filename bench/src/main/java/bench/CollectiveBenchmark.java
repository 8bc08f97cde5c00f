package bench;

import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The loop every collective latency test shares, as OSU measures it: for each message size,
 * warm-up then timed calls, each preceded by a barrier and timed alone; each rank's average time
 * per call; then rank 0 gathers the ranks' averages and prints their average (and with {@code -f}
 * their minimum, maximum and the iteration count). Sizes are bytes; a test on 4-byte floats leaves
 * out the sizes below 4, as OSU does.
 */
final class CollectiveBenchmark {
    /**
     * Untimed calls of the smallest size before the first measurement under {@code -J}, so that the
     * JIT has compiled the library's path: the first tens of thousands of calls of a JVM run
     * interpreted or in C1 code at 10-50x the compiled cost, which OSU's C-sized warm-up (200
     * calls) does not cover. Without {@code -J} the figures are those an application meets.
     */
    static final int JIT_WARMUP = 50_000;

    private CollectiveBenchmark() {
    }

    /** One collective call moving {@code bytes} bytes per rank (the size the table shows). */
    @FunctionalInterface
    interface Operation {
        void run(int bytes) throws MPIException;
    }

    /** Allocates the buffers for sizes up to {@code options.maxSize()} and returns the call to time. */
    @FunctionalInterface
    interface Setup {
        Operation prepare(Options options, Intracomm comm) throws MPIException;
    }

    /**
     * Runs a collective test over message sizes.
     *
     * @param name        the title, e.g. "OSU MPI Allreduce Latency Test"
     * @param elementSize bytes per element (1 for MPI.BYTE, 4 for MPI.FLOAT)
     */
    static void run(String[] args, String name, int elementSize, Setup setup) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, Options.Defaults.COLLECTIVE);
        Intracomm comm = MPI.COMM_WORLD;
        if (enoughRanks(comm)) {
            int rank = comm.getRank();
            if (rank == 0) {
                System.out.println(Report.title(name, options.direct()));
                System.out.println(Report.collectiveHeader(options.full()));
            }
            Operation operation = setup.prepare(options, comm);
            long[] sizes = options.sizes(elementSize);
            if (sizes.length > 0 && options.jitWarmup()) {
                warmUp(comm, operation, (int) sizes[0]);
            }
            for (long size : sizes) {
                int iterations = options.iterations(size);
                Stats stats = measure(comm, operation, (int) size, iterations, options.warmup(size));
                if (rank == 0) {
                    System.out.println(Report.collectiveRow(size, stats, iterations, options.full()));
                }
            }
        }
        MPI.Finalize();
    }

    /** Runs a collective test without a message size (barrier): one row. */
    static void runSizeless(String[] args, String name, Operation operation) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, Options.Defaults.COLLECTIVE);
        Intracomm comm = MPI.COMM_WORLD;
        if (enoughRanks(comm)) {
            int iterations = options.iterations();
            if (options.jitWarmup()) {
                warmUp(comm, operation, 0);
            }
            Stats stats = measure(comm, operation, 0, iterations, options.warmup());
            if (comm.getRank() == 0) {
                System.out.println(Report.title(name, options.direct()));
                System.out.println(Report.sizelessHeader(options.full()));
                System.out.println(Report.sizelessRow(stats, iterations, options.full()));
            }
        }
        MPI.Finalize();
    }

    /** OSU's collective tests need two ranks at least; rank 0 says so otherwise. */
    private static boolean enoughRanks(Comm comm) throws MPIException {
        if (comm.getSize() >= 2) {
            return true;
        }
        if (comm.getRank() == 0) {
            System.err.println("This test requires at least two processes");
        }
        return false;
    }

    /** {@link #JIT_WARMUP} untimed calls, each after a barrier as in the measurement. */
    private static void warmUp(Intracomm comm, Operation operation, int bytes) throws MPIException {
        for (int i = 0; i < JIT_WARMUP; i++) {
            comm.barrier();
            operation.run(bytes);
        }
    }

    /**
     * Times {@code iterations} calls after {@code warmup} untimed ones, a barrier before each, and
     * returns, at rank 0, the statistics over the ranks' average times (null elsewhere).
     */
    static Stats measure(Intracomm comm, Operation operation, int bytes, int iterations, int warmup)
            throws MPIException {
        double timer = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            comm.barrier();
            double start = MPI.wtime();
            operation.run(bytes);
            double stop = MPI.wtime();
            if (i >= warmup) {
                timer += stop - start;
            }
        }
        comm.barrier();
        double[] mine = {Stats.microsPerIteration(timer, iterations)};
        double[] all = new double[comm.getRank() == 0 ? comm.getSize() : 1];
        comm.gather(mine, 1, MPI.DOUBLE, all, 1, MPI.DOUBLE, 0);
        return comm.getRank() == 0 ? Stats.of(all) : null;
    }
}
