package bench;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;

/** osu_latency: ping-pong between ranks 0 and 1; half the round trip, in microseconds. */
public final class OsuLatency {
    private OsuLatency() {
    }

    /**
     * As osu_latency, plus {@code -T multiple}: MPI initialized with MPI_THREAD_MULTIPLE (one thread
     * still does the ping-pong), to measure what the thread level costs the single-threaded path.
     */
    public static void main(String[] args) throws MPIException {
        boolean multiple = args.length >= 2 && args[0].equals("-T") && args[1].equals("multiple");
        if (multiple) {
            args = java.util.Arrays.copyOfRange(args, 2, args.length);
        }
        int provided = MPI.InitThread(args, multiple ? MPI.THREAD_MULTIPLE : MPI.THREAD_SINGLE);
        if (multiple && provided != MPI.THREAD_MULTIPLE) {
            throw new IllegalStateException("-T multiple: the library provides thread level " + provided);
        }
        Options options = Options.parse(args, 1 << 22, 10_000, 1_000);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.println(Report.title("OSU MPI Latency Test", options.direct()));
            System.out.println(Report.header(Report.LATENCY));
        }
        Object buffer = options.buffer((int) Math.max(1, options.maxSize()));
        if (options.jitWarmup()) {
            // Untimed round trips first, so the JIT has compiled the path (see CollectiveBenchmark.JIT_WARMUP);
            // a round trip is cheap, so many more than for the collectives. Then untimed sweeps (Warmup):
            // without them the first sizes of a sweep from 1 byte measured 0.23-0.31 us against 0.12.
            pingPong(rank, buffer, (int) options.minSize(), 4 * CollectiveBenchmark.JIT_WARMUP, options.direct());
            Warmup.sweep(() -> {
                for (long size = options.minSize(); size <= options.maxSize(); size = options.next(size)) {
                    measure(rank, buffer, (int) size, options);
                }
            });
        }
        for (long size = options.minSize(); size <= options.maxSize(); size = options.next(size)) {
            double latency = measure(rank, buffer, (int) size, options);
            if (rank == 0) {
                System.out.println(Report.row(size, latency));
            }
        }
        MPI.Finalize();
    }

    /** Half the round trip of {@code n} bytes in microseconds, after the warm-up round trips. */
    private static double measure(int rank, Object buffer, int n, Options options) throws MPIException {
        int iterations = n > 8192 ? options.iterations() / 10 + 1 : options.iterations();
        Object buf = options.direct() ? MPI.slice((ByteBuffer) buffer, 0) : buffer;
        MPI.COMM_WORLD.barrier();
        pingPong(rank, buf, n, options.warmup(), false);
        double start = MPI.wtime();
        pingPong(rank, buf, n, iterations, false);
        return (MPI.wtime() - start) * 1e6 / (2.0 * iterations);
    }

    /** {@code count} round trips of {@code n} bytes between ranks 0 and 1. */
    private static void pingPong(int rank, Object buffer, int n, int count, boolean slice) throws MPIException {
        Object buf = slice ? MPI.slice((ByteBuffer) buffer, 0) : buffer;
        for (int i = 0; i < count; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(buf, n, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.recv(buf, n, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(buf, n, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(buf, n, MPI.BYTE, 0, 1);
            }
        }
    }
}
