package bench;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * osu_mbw_mr: n / 2 pairs, rank i sending to rank i + n / 2; each sender posts a window of
 * non-blocking sends, its receiver as many receives then a 4-byte acknowledgement. Prints the
 * aggregate bandwidth of all pairs in MB/s (10^6 bytes per second) and the aggregate message rate.
 */
public final class OsuMbwMr {
    private OsuMbwMr() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, 1 << 22, 100, 10);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int pairs = comm.getSize() / 2;
        if (pairs == 0) {
            System.err.println("This test requires at least two processes");
            MPI.Finalize();
            return;
        }
        if (rank == 0) {
            System.out.println(Report.title("OSU MPI Multiple Bandwidth / Message Rate Test", options.direct()));
            System.out.println(Report.pairs(pairs, options.window()));
            System.out.println(Report.header(Report.MB_PER_SECOND, Report.MESSAGES_PER_SECOND));
        }
        int max = (int) Math.max(1, options.maxSize());
        ByteBuffer buffer = options.byteBuffer(max);
        byte[] ack = new byte[4];
        Request[] requests = new Request[options.window()];
        for (long size = Math.max(1, options.minSize()); size <= options.maxSize(); size *= 2) {
            int n = (int) size;
            comm.barrier();
            double seconds = 0;
            if (rank < 2 * pairs) {
                boolean sender = rank < pairs;
                int peer = sender ? rank + pairs : rank - pairs;
                double start = 0;
                for (int i = 0; i < options.iterations() + options.warmup(); i++) {
                    if (i == options.warmup()) {
                        comm.barrier();
                        start = MPI.wtime();
                    }
                    for (int w = 0; w < requests.length; w++) {
                        requests[w] = sender ? comm.iSend(buffer, n, MPI.BYTE, peer, 100)
                                : comm.iRecv(buffer, n, MPI.BYTE, peer, 100);
                    }
                    Request.waitAll(requests);
                    if (sender) {
                        comm.recv(ack, 4, MPI.BYTE, peer, 101);
                    } else {
                        comm.send(ack, 4, MPI.BYTE, peer, 101);
                    }
                }
                seconds = sender ? MPI.wtime() - start : 0;
            } else {
                comm.barrier();
            }
            double[] sum = new double[1];
            comm.reduce(new double[] {seconds}, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (rank == 0) {
                double bandwidth = bandwidth(size, pairs, options.iterations(), options.window(), sum[0]);
                System.out.println(Report.row(size, bandwidth, messageRate(size, bandwidth)));
            }
        }
        MPI.Finalize();
    }

    /**
     * The aggregate MB/s, as OSU computes it: every pair moved {@code iterations} windows of
     * {@code size} bytes in the senders' mean time ({@code senderSecondsSum / pairs}).
     */
    static double bandwidth(long size, int pairs, int iterations, int window, double senderSecondsSum) {
        return size / 1e6 * pairs * iterations * window / (senderSecondsSum / pairs);
    }

    /** Messages per second from the aggregate bandwidth in MB/s. */
    static double messageRate(long size, double bandwidth) {
        return 1e6 * bandwidth / size;
    }
}
