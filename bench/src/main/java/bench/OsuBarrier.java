package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_barrier: MPI_Barrier; average latency over ranks, one row without a size column, as OSU prints it. */
public final class OsuBarrier {
    private OsuBarrier() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.runSizeless(args, "OSU MPI Barrier Latency Test", bytes -> MPI.COMM_WORLD.barrier());
    }
}
