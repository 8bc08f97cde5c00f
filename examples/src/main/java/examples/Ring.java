package examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * A token travels round the ring of ranks {@code laps} times (default 10); rank 0 decrements it
 * once per lap, as in Open MPI's ring example.
 */
public final class Ring {
    private static final int TAG = 201;

    private Ring() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        int[] token = new int[1];
        if (rank == 0) {
            token[0] = args.length > 0 ? Integer.parseInt(args[0]) : 10;
            System.out.println("rank 0 sends " + token[0] + " to rank " + next + " (" + size + " ranks in the ring)");
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, TAG);
        }
        while (true) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, previous, TAG);
            if (rank == 0) {
                token[0]--;
                System.out.println("rank 0 decremented the token to " + token[0]);
            }
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, TAG);
            if (token[0] == 0) {
                break;
            }
        }
        if (rank == 0) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, previous, TAG);
        }
        System.out.println("rank " + rank + " exits");
        MPI.Finalize();
    }
}
