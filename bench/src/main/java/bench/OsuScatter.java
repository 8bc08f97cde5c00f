package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_scatter: MPI_Scatter of size bytes to every rank from rank 0; average latency over ranks. */
public final class OsuScatter {
    private OsuScatter() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Scatter Latency Test", 1, (options, comm) -> {
            Object send = options.buffer(comm.getRank() == 0 ? Math.multiplyExact((int) options.maxSize(), comm.getSize()) : 1);
            Object recv = options.buffer((int) options.maxSize());
            return bytes -> comm.scatter(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE, 0);
        });
    }
}
