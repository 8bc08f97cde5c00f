package bench;

import mpi.MPI;
import mpi.MPIException;

/** osu_alltoall: MPI_Alltoall of size bytes to and from every rank; average latency over ranks. */
public final class OsuAlltoall {
    private OsuAlltoall() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveBenchmark.run(args, "OSU MPI All-to-All Personalized Exchange Latency Test", 1, (options, comm) -> {
            int total = Math.multiplyExact((int) options.maxSize(), comm.getSize());
            Object send = options.buffer(total);
            Object recv = options.buffer(total);
            return bytes -> comm.allToAll(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE);
        });
    }
}
