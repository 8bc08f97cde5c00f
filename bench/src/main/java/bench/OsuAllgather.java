package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_allgather: MPI_Allgather of size bytes from every rank; average latency over ranks. */
public final class OsuAllgather {
    private OsuAllgather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Allgather Latency Test", 1, (options, comm) -> {
            Object send = options.buffer((int) options.maxSize());
            Object recv = options.buffer(Math.multiplyExact((int) options.maxSize(), comm.getSize()));
            return bytes -> comm.allGather(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE);
        });
    }
}
