package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_reduce: MPI_Reduce of MPI.FLOAT with MPI.SUM to rank 0, size / 4 floats; average latency over ranks. */
public final class OsuReduce {
    private OsuReduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Reduce Latency Test", Float.BYTES, (options, comm) -> {
            int count = (int) (options.maxSize() / Float.BYTES);
            Object send = options.floats(count);
            Object recv = options.floats(count);
            return bytes -> comm.reduce(send, recv, bytes / Float.BYTES, MPI.FLOAT, MPI.SUM, 0);
        });
    }
}
