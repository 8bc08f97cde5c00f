package org.jmca.tests.programs;

import java.util.Arrays;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * One allreduce of {@code count} ints (args[0]), checked, on COMM_WORLD or, with args[1], on a
 * duplicate made with that {@code ompi_comm_coll_preference}. Prints PASS.
 */
public final class OneAllreduce {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int count = Integer.parseInt(args[0]);
        Intracomm comm = MPI.COMM_WORLD;
        if (args.length > 1) {
            Info info = new Info();
            info.set("ompi_comm_coll_preference", args[1]);
            comm = comm.dupWithInfo(info);
        }
        int rank = comm.getRank();
        int size = comm.getSize();
        int[] data = new int[count];
        Arrays.setAll(data, i -> i + rank);
        comm.barrier();
        comm.allReduce(data, count, MPI.INT, MPI.SUM);
        for (int i = 0; i < count; i++) {
            Check.equal(data[i], (long) size * i + size * (size - 1) / 2, "allreduce element " + i);
        }
        System.out.println("PASS allreduce " + rank);
        MPI.Finalize();
    }
}
