package bench;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * osu_bw: rank 0 posts a window of non-blocking sends, rank 1 as many receives, then a 4-byte
 * acknowledgement; bandwidth in MB/s (10^6 bytes per second).
 */
public final class OsuBw {
    private OsuBw() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, 1 << 22, 100, 10);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.println(options.receiverDirect() && !options.direct()
                    ? "# OSU MPI Bandwidth Test (Java, byte[] to direct buffers)"
                    : Report.title("OSU MPI Bandwidth Test", options.direct()));
            System.out.println(Report.header(Report.BANDWIDTH));
        }
        int max = (int) Math.max(1, options.maxSize());
        boolean direct = rank == 0 ? options.direct() : options.receiverDirect();
        Buffer buffer = direct ? MPI.newByteBuffer(max) : ByteBuffer.wrap(new byte[max]);
        Request[] requests = new Request[options.window()];
        byte[] ack = new byte[4];
        if (options.jitWarmup()) {
            Warmup.sweep(() -> {
                for (long size = Math.max(1, options.minSize()); size <= options.maxSize(); size *= 2) {
                    measure(rank, buffer, (int) size, requests, ack, options);
                }
            });
        }
        for (long size = Math.max(1, options.minSize()); size <= options.maxSize(); size *= 2) {
            double bandwidth = measure(rank, buffer, (int) size, requests, ack, options);
            if (rank == 0) {
                System.out.println(Report.row(size, bandwidth));
            }
        }
        MPI.Finalize();
    }

    /** MB/s of windows of {@code n}-byte messages from rank 0 to rank 1, after the warm-up windows. */
    private static double measure(int rank, Buffer buffer, int n, Request[] requests, byte[] ack, Options options)
            throws MPIException {
        MPI.COMM_WORLD.barrier();
        double start = 0;
        for (int i = 0; i < options.iterations() + options.warmup(); i++) {
            if (i == options.warmup()) {
                start = MPI.wtime();
            }
            if (rank == 0) {
                for (int w = 0; w < requests.length; w++) {
                    requests[w] = MPI.COMM_WORLD.iSend(buffer, n, MPI.BYTE, 1, 100);
                }
                Request.waitAll(requests);
                MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, 101);
            } else if (rank == 1) {
                for (int w = 0; w < requests.length; w++) {
                    requests[w] = MPI.COMM_WORLD.iRecv(buffer, n, MPI.BYTE, 0, 100);
                }
                Request.waitAll(requests);
                MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, 101);
            }
        }
        return (double) n / 1e6 * options.iterations() * requests.length / (MPI.wtime() - start);
    }
}
