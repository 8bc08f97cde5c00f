package app;

import mpi.MPI;
import mpi.MPIException;

public class Hello {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] sum = {rank + 1};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " of " + MPI.COMM_WORLD.getSize() + ": sum " + sum[0]);
        MPI.Finalize();
    }
}
