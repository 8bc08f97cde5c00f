package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_bcast: MPI_Bcast of MPI.BYTE from rank 0; average latency over ranks, in microseconds. */
public final class OsuBcast {
    private OsuBcast() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Broadcast Latency Test", 1, (options, comm) -> {
            Object buffer = options.buffer((int) options.maxSize());
            return bytes -> comm.bcast(buffer, bytes, MPI.BYTE, 0);
        });
    }
}
