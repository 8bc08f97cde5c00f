package bench;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * osu_bibw: ranks 0 and 1 each post a window of non-blocking receives, then a window of
 * non-blocking sends to each other, and wait for all; bandwidth of both directions together in
 * MB/s (10^6 bytes per second).
 */
public final class OsuBibw {
    private OsuBibw() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, 1 << 22, 100, 10);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.println(Report.title("OSU MPI Bi-Directional Bandwidth Test", options.direct()));
            System.out.println(Report.header(Report.BANDWIDTH));
        }
        int max = (int) Math.max(1, options.maxSize());
        ByteBuffer sendBuffer = options.byteBuffer(max);
        ByteBuffer recvBuffer = options.byteBuffer(max);
        int window = options.window();
        Request[] requests = new Request[2 * window];
        int peer = 1 - rank;
        for (long size = Math.max(1, options.minSize()); size <= options.maxSize(); size *= 2) {
            int n = (int) size;
            MPI.COMM_WORLD.barrier();
            double start = 0;
            if (rank < 2) {
                for (int i = 0; i < options.iterations() + options.warmup(); i++) {
                    if (i == options.warmup()) {
                        start = MPI.wtime();
                    }
                    for (int w = 0; w < window; w++) {
                        requests[w] = MPI.COMM_WORLD.iRecv(recvBuffer, n, MPI.BYTE, peer, 10);
                    }
                    for (int w = 0; w < window; w++) {
                        requests[window + w] = MPI.COMM_WORLD.iSend(sendBuffer, n, MPI.BYTE, peer, 10);
                    }
                    Request.waitAll(requests);
                }
            }
            if (rank == 0) {
                double seconds = MPI.wtime() - start;
                System.out.println(Report.row(size, bandwidth(size, options.iterations(), window, seconds)));
            }
        }
        MPI.Finalize();
    }

    /** MB/s of both directions: each of {@code iterations} moved a window of messages each way. */
    static double bandwidth(long size, int iterations, int window, double seconds) {
        return size / 1e6 * iterations * window * 2 / seconds;
    }
}
