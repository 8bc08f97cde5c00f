package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * What MPI.Init leaves behind, with or without its warm-up: no message for the application to
 * find, and COMM_WORLD's point-to-point order and collectives as on a fresh communicator. Each
 * rank sends its rank to the next with tag 0 (the tag the warm-up uses), then allreduces and
 * broadcasts. Prints PASS.
 */
public final class AfterInit {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Status pending = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        Check.that(pending == null, "a message was waiting after MPI.Init: from " + (pending == null ? -1
                : pending.getSource()) + " with tag " + (pending == null ? -1 : pending.getTag()));
        MPI.COMM_WORLD.barrier();
        int[] value = {rank};
        int[] received = new int[1];
        MPI.COMM_WORLD.sendRecv(value, 1, MPI.INT, (rank + 1) % size, 0, received, 1, MPI.INT,
                (rank + size - 1) % size, 0);
        Check.equal(received[0], (rank + size - 1) % size, "the value from the previous rank");
        double[] sum = new double[1];
        MPI.COMM_WORLD.allReduce(new double[] {rank}, sum, 1, MPI.DOUBLE, MPI.SUM);
        Check.that(sum[0] == size * (size - 1) / 2.0, "allreduce gave " + sum[0]);
        long[] root = {rank == size - 1 ? 42 : -1};
        MPI.COMM_WORLD.bcast(root, 1, MPI.LONG, size - 1);
        Check.equal(root[0], 42, "bcast from the last rank");
        System.out.println("PASS " + rank);
        MPI.Finalize();
    }
}
