package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_allreduce: MPI_Allreduce of MPI.FLOAT with MPI.SUM, size / 4 floats; average latency over ranks. */
public final class OsuAllreduce {
    private OsuAllreduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Allreduce Latency Test", Float.BYTES, (options, comm) -> {
            int count = (int) (options.maxSize() / Float.BYTES);
            Object send = options.floats(count);
            Object recv = options.floats(count);
            return bytes -> comm.allReduce(send, recv, bytes / Float.BYTES, MPI.FLOAT, MPI.SUM);
        });
    }
}
