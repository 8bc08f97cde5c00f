package bench;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;

/** osu_latency: ping-pong between ranks 0 and 1; half the round trip, in microseconds. */
public final class OsuLatency {
    private OsuLatency() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, 1 << 22, 10_000, 1_000);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.println(Report.title("OSU MPI Latency Test", options.direct()));
            System.out.println(Report.header(Report.LATENCY));
        }
        Object buffer = options.buffer((int) Math.max(1, options.maxSize()));
        for (long size = options.minSize(); size <= options.maxSize(); size = options.next(size)) {
            int iterations = size > 8192 ? options.iterations() / 10 + 1 : options.iterations();
            int n = (int) size;
            Object buf = options.direct() ? MPI.slice((ByteBuffer) buffer, 0) : buffer;
            MPI.COMM_WORLD.barrier();
            double start = 0;
            for (int i = 0; i < iterations + options.warmup(); i++) {
                if (i == options.warmup()) {
                    start = MPI.wtime();
                }
                if (rank == 0) {
                    MPI.COMM_WORLD.send(buf, n, MPI.BYTE, 1, 1);
                    MPI.COMM_WORLD.recv(buf, n, MPI.BYTE, 1, 1);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(buf, n, MPI.BYTE, 0, 1);
                    MPI.COMM_WORLD.send(buf, n, MPI.BYTE, 0, 1);
                }
            }
            if (rank == 0) {
                System.out.println(Report.row(size, (MPI.wtime() - start) * 1e6 / (2.0 * iterations)));
            }
        }
        MPI.Finalize();
    }
}
