package bench;

import java.util.List;
import mpi.MPI;
import mpi.MPIException;

/**
 * The application loop: what a program that never warms up sees. Each call is timed in batches
 * from the very first one on: {@code allReduce} of one {@code double} (heap array, {@code SUM}),
 * {@code bcast} of 8 bytes from rank 0, {@code barrier}, and an 8-byte ping-pong between ranks 0
 * and 1 (one way, half the round trip). Prints rank 0's mean microseconds per call for each batch.
 *
 * <p>Usage: {@code AppLoop [-J] [BATCHES [CALLS [CALLS-TO-TIME]]]} (default 10 batches of 1000 calls
 * of {@code allreduce,bcast,barrier,pingpong}: one column each, in that order). {@code -J} first
 * makes {@link CollectiveBenchmark#JIT_WARMUP} untimed calls of each kind: the loop's steady state,
 * which the batches of a run without it are compared with. The C program
 * {@code bench/c/app_loop.c} prints the same table.
 */
public final class AppLoop {
    private static final String[] CALLS = {"allreduce", "bcast", "barrier", "pingpong"};

    private AppLoop() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        boolean jitWarmup = args.length > 0 && args[0].equals("-J");
        if (jitWarmup) {
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2) {
            if (rank == 0) {
                System.err.println("This test requires at least two processes");
            }
            MPI.Finalize();
            return;
        }
        String only = args.length > 2 ? args[2] : String.join(",", CALLS);
        for (String call : only.split(",")) {
            if (!List.of(CALLS).contains(call)) {
                throw new IllegalArgumentException("AppLoop: unknown call '" + call + "'; the calls are "
                        + String.join(",", CALLS));
            }
        }
        double[][] table = new double[4][batches];
        double[] in = {1.0};
        double[] out = new double[1];
        byte[] bytes = new byte[8];
        for (int i = 0; jitWarmup && i < CollectiveBenchmark.JIT_WARMUP; i++) {
            MPI.COMM_WORLD.allReduce(in, out, 1, MPI.DOUBLE, MPI.SUM);
            MPI.COMM_WORLD.bcast(bytes, 8, MPI.BYTE, 0);
            MPI.COMM_WORLD.barrier();
            pingPong(rank, bytes);
        }
        for (int b = 0; only.contains("allreduce") && b < batches; b++) {
            double start = MPI.wtime();
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.allReduce(in, out, 1, MPI.DOUBLE, MPI.SUM);
            }
            table[0][b] = (MPI.wtime() - start) * 1e6 / calls;
        }
        for (int b = 0; only.contains("bcast") && b < batches; b++) {
            double start = MPI.wtime();
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.bcast(bytes, 8, MPI.BYTE, 0);
            }
            table[1][b] = (MPI.wtime() - start) * 1e6 / calls;
        }
        for (int b = 0; only.contains("barrier") && b < batches; b++) {
            double start = MPI.wtime();
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.barrier();
            }
            table[2][b] = (MPI.wtime() - start) * 1e6 / calls;
        }
        for (int b = 0; only.contains("pingpong") && b < batches; b++) {
            double start = MPI.wtime();
            for (int i = 0; i < calls; i++) {
                pingPong(rank, bytes);
            }
            table[3][b] = (MPI.wtime() - start) * 1e6 / (2.0 * calls);
        }
        if (rank == 0) {
            System.out.println("# Application loop (Java): mean us per call, batches of " + calls
                    + (jitWarmup ? " calls after " + CollectiveBenchmark.JIT_WARMUP + " untimed calls of each kind"
                    : " calls timed from the first"));
            StringBuilder header = new StringBuilder(String.format("%-8s", "# Batch"));
            for (int c = 0; c < CALLS.length; c++) {
                if (only.contains(CALLS[c])) {
                    header.append(String.format("%14s", CALLS[c]));
                }
            }
            System.out.println(header);
            for (int b = 0; b < batches; b++) {
                StringBuilder row = new StringBuilder(String.format("%-8d", b + 1));
                for (int c = 0; c < CALLS.length; c++) {
                    if (only.contains(CALLS[c])) {
                        row.append(String.format("%14.2f", table[c][b]));
                    }
                }
                System.out.println(row);
            }
        }
        MPI.Finalize();
    }

    /** Half a round trip of 8 bytes between ranks 0 and 1; the other ranks do nothing. */
    private static void pingPong(int rank, byte[] bytes) throws MPIException {
        if (rank == 0) {
            MPI.COMM_WORLD.send(bytes, 8, MPI.BYTE, 1, 1);
            MPI.COMM_WORLD.recv(bytes, 8, MPI.BYTE, 1, 1);
        } else if (rank == 1) {
            MPI.COMM_WORLD.recv(bytes, 8, MPI.BYTE, 0, 1);
            MPI.COMM_WORLD.send(bytes, 8, MPI.BYTE, 0, 1);
        }
    }
}
