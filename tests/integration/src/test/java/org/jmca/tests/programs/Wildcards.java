package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Every other rank sends rank 0 messages tagged with its rank; rank 0 receives them with
 * ANY_SOURCE and ANY_TAG and checks that each status names the true sender and tag.
 */
public final class Wildcards {
    private Wildcards() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int perRank = 50;
        if (rank == 0) {
            int[] seen = new int[size];
            int[] message = new int[2];
            for (int i = 0; i < perRank * (size - 1); i++) {
                Status status = MPI.COMM_WORLD.recv(message, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(status.getSource(), message[0], "status source");
                Check.equal(status.getTag(), 1000 + message[0], "status tag");
                Check.equal(message[1], seen[message[0]]++, "order of rank " + message[0] + "'s messages");
            }
            // A specific source with ANY_TAG, and ANY_SOURCE with a specific tag.
            MPI.COMM_WORLD.barrier();
            Status fromLast = MPI.COMM_WORLD.recv(message, 2, MPI.INT, size - 1, MPI.ANY_TAG);
            Check.equal(fromLast.getSource(), size - 1, "specific source");
            Status tagged = MPI.COMM_WORLD.recv(message, 2, MPI.INT, MPI.ANY_SOURCE, 77);
            Check.equal(tagged.getTag(), 77, "specific tag");
            System.out.println("PASS wildcards: " + perRank * (size - 1) + " messages");
        } else {
            for (int i = 0; i < perRank; i++) {
                MPI.COMM_WORLD.send(new int[] {rank, i}, 2, MPI.INT, 0, 1000 + rank);
            }
            MPI.COMM_WORLD.barrier();
            if (rank == size - 1) {
                MPI.COMM_WORLD.send(new int[] {rank, 0}, 2, MPI.INT, 0, 5);
            }
            if (rank == 1) {
                MPI.COMM_WORLD.send(new int[] {rank, 0}, 2, MPI.INT, 0, 77);
            }
        }
        MPI.Finalize();
    }
}
