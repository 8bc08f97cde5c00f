package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_gather: MPI_Gather of size bytes from every rank to rank 0; average latency over ranks. */
public final class OsuGather {
    private OsuGather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI Gather Latency Test", 1, (options, comm) -> {
            Object send = options.buffer((int) options.maxSize());
            Object recv = options.buffer(comm.getRank() == 0 ? Math.multiplyExact((int) options.maxSize(), comm.getSize()) : 1);
            return bytes -> comm.gather(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE, 0);
        });
    }
}
