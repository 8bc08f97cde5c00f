package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Rank 0 sends rank 1 messages whose sizes cross the eager/rendezvous threshold in both
 * directions, from and into heap arrays and direct buffers; rank 1 receives them in order and
 * checks every byte, count and tag.
 */
public final class MixedSizesPair {
    static final int[] SIZES = {0, 1, 7, 100, 4000, 65_519, 65_520, 65_536, 65_537, 131_072, 200_000, 3,
        1 << 20, 5, 4 * (1 << 20) + 11, 65_000, 0, 70_000};

    private static final int ROUNDS = 4;

    private MixedSizesPair() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        // Round r: the sender's buffer is direct if bit 0 is set, the receiver's if bit 1 is, so
        // every pairing of heap and native memory meets every size (RGET and RPUT included).
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < SIZES.length; i++) {
                int size = SIZES[i];
                long seed = i + 100L * round;
                if (rank == 0) {
                    boolean direct = (round & 1) != 0;
                    ByteBuffer data = direct ? MPI.newByteBuffer(size) : ByteBuffer.wrap(new byte[size]);
                    Check.fill(data, size, seed);
                    if (direct) {
                        MPI.COMM_WORLD.send(data, size, MPI.BYTE, 1, i);
                    } else {
                        MPI.COMM_WORLD.send(data.array(), size, MPI.BYTE, 1, i);
                    }
                } else if (rank == 1) {
                    boolean direct = (round & 2) != 0;
                    ByteBuffer data = direct ? MPI.newByteBuffer(size) : ByteBuffer.wrap(new byte[size]);
                    Status status = direct ? MPI.COMM_WORLD.recv(data, size, MPI.BYTE, 0, MPI.ANY_TAG)
                            : MPI.COMM_WORLD.recv(data.array(), size, MPI.BYTE, 0, MPI.ANY_TAG);
                    Check.equal(status.getTag(), i, "tag of message " + i);
                    Check.equal(status.getCount(MPI.BYTE), size, "count of message " + i);
                    Check.equal(status.getSource(), 0, "source");
                    Check.verify(data, size, seed, "message " + i + " of " + size + " bytes in round " + round);
                }
            }
        }
        if (rank < 2) {
            System.out.println("rank " + rank + " rendezvous rget=" + MPI.performanceVariable("pml_ob1_rget") + " rput="
                    + MPI.performanceVariable("pml_ob1_rput"));
        }
        if (rank == 1) {
            System.out.println("PASS mixed sizes: " + ROUNDS * SIZES.length + " messages in order and intact");
        }
        MPI.Finalize();
    }
}
