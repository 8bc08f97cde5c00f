package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Rank 0 sends rank 1 messages whose sizes cross the eager/rendezvous threshold in both
 * directions; rank 1 receives them in order and checks every byte, count and tag.
 */
public final class MixedSizesPair {
    static final int[] SIZES = {0, 1, 7, 100, 4000, 65_519, 65_520, 65_536, 65_537, 131_072, 200_000, 3,
        1 << 20, 5, 4 * (1 << 20) + 11, 65_000, 0, 70_000};

    private MixedSizesPair() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < SIZES.length; i++) {
                int size = SIZES[i];
                byte[] data = new byte[size];
                if (rank == 0) {
                    Check.fill(ByteBuffer.wrap(data), size, i + 100L * round);
                    MPI.COMM_WORLD.send(data, size, MPI.BYTE, 1, i);
                } else if (rank == 1) {
                    Status status = MPI.COMM_WORLD.recv(data, size, MPI.BYTE, 0, MPI.ANY_TAG);
                    Check.equal(status.getTag(), i, "tag of message " + i);
                    Check.equal(status.getCount(MPI.BYTE), size, "count of message " + i);
                    Check.equal(status.getSource(), 0, "source");
                    Check.verify(ByteBuffer.wrap(data), size, i + 100L * round, "message " + i + " of " + size + " bytes");
                }
            }
        }
        if (rank == 1) {
            System.out.println("PASS mixed sizes: " + 3 * SIZES.length + " messages in order and intact");
        }
        MPI.Finalize();
    }
}
