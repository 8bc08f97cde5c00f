package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Rank 0 sends before rank 1 posts any receive (the barrier orders it), so every message waits
 * as unexpected, eager and rendezvous alike. Rank 1 then probes each one, sizes its buffer from
 * the probe's count, and receives it.
 */
public final class UnexpectedAndProbe {
    private UnexpectedAndProbe() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] sizes = {10, 50_000, 300_000, 0, 1 << 20};
        if (rank == 0) {
            mpi.Request[] sends = new mpi.Request[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                ByteBuffer data = MPI.newByteBuffer(sizes[i]);
                Check.fill(data, sizes[i], i);
                sends[i] = MPI.COMM_WORLD.iSend(data, sizes[i], MPI.BYTE, 1, 40 + i);
            }
            MPI.COMM_WORLD.barrier();
            mpi.Request.waitAll(sends);
        } else if (rank == 1) {
            MPI.COMM_WORLD.barrier();
            Check.that(MPI.COMM_WORLD.iProbe(0, 99) == null, "iProbe found a message with a tag nobody sent");
            for (int i = 0; i < sizes.length; i++) {
                Status probed = MPI.COMM_WORLD.probe(0, MPI.ANY_TAG);
                Check.equal(probed.getTag(), 40 + i, "probed tag");
                int count = probed.getCount(MPI.BYTE);
                Check.equal(count, sizes[i], "probed count");
                byte[] data = new byte[count];
                Status received = MPI.COMM_WORLD.recv(data, count, MPI.BYTE, probed.getSource(), probed.getTag());
                Check.equal(received.getCount(MPI.BYTE), count, "received count");
                Check.verify(ByteBuffer.wrap(data), count, i, "message " + i);
            }
            System.out.println("PASS unexpected messages and probe");
        } else {
            MPI.COMM_WORLD.barrier();
        }
        MPI.Finalize();
    }
}
