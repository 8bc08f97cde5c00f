package bench.internal;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * How long the JIT takes to warm JMCA's call paths: three rounds, each of 20,000 barriers, then
 * 20,000 zero-byte sendRecv exchanges, then 20,000 one-int allreduces between 2 ranks, with the
 * mean time of each printed per round. The figures behind CollectiveBenchmark.JIT_WARMUP.
 * {@code bin/jmpirun -np 2 --bind-to core --mca btl self,sm -cp bench/target/jmca-bench.jar bench.internal.WarmupProbe}
 */
public final class WarmupProbe {
    private static final int CALLS = 20_000;

    private WarmupProbe() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int peer = 1 - rank;
        byte[] bytes = new byte[8];
        int[] ints = new int[2];
        for (int round = 1; round <= 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                comm.barrier();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                comm.sendRecv(bytes, 0, MPI.BYTE, peer, 5, bytes, 0, MPI.BYTE, peer, 5);
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                comm.allReduce(ints, 1, MPI.INT, MPI.SUM);
            }
            long t3 = System.nanoTime();
            if (rank == 0) {
                System.out.printf("round %d: barrier %.2f us, sendrecv %.2f us, allreduce (4 B) %.2f us%n", round,
                        (t1 - t0) / (CALLS * 1e3), (t2 - t1) / (CALLS * 1e3), (t3 - t2) / (CALLS * 1e3));
            }
        }
        MPI.Finalize();
    }
}
