package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Rank 0 sends rank 1 a few 1 MiB messages while rank 1 computes for 20 ms each time, then
 * checks the notification counters of asynchronous progress:
 * <ul>
 *   <li>"blocking": rank 1 computes with no receive posted, then receives with MPI_Recv. Its
 *       doorbell is never armed, so no notification may happen at all;</li>
 *   <li>"nonblocking": rank 1 posts MPI_Irecv, computes, then waits. Rank 0 must have rung, and
 *       rank 1's helper must have read some message while rank 1 computed.</li>
 * </ul>
 */
public final class AsyncNotifications {
    private static final int SIZE = 1 << 20;
    private static final int MESSAGES = 5;

    private AsyncNotifications() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        boolean nonBlocking = args.length > 0 && args[0].equals("nonblocking");
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buffer = MPI.newByteBuffer(SIZE);
        for (int i = 0; i < MESSAGES; i++) {
            if (rank == 0) {
                Check.fill(buffer, SIZE, i);
                MPI.COMM_WORLD.recv(new byte[1], 1, MPI.BYTE, 1, 2);
                MPI.COMM_WORLD.send(buffer, SIZE, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                Request request = nonBlocking ? MPI.COMM_WORLD.iRecv(buffer, SIZE, MPI.BYTE, 0, 1) : null;
                MPI.COMM_WORLD.send(new byte[1], 1, MPI.BYTE, 0, 2);
                computeFor(20_000_000);
                if (request != null) {
                    request.waitFor();
                } else {
                    MPI.COMM_WORLD.recv(buffer, SIZE, MPI.BYTE, 0, 1);
                }
                Check.verify(buffer, SIZE, i, "message " + i);
            }
        }
        long[] counters = {
            MPI.performanceVariable("pml_ob1_notifications_sent"),
            MPI.performanceVariable("progress_polling_async_notifications"),
            MPI.performanceVariable("pml_ob1_async_rendezvous"),
        };
        long[] sums = new long[3];
        MPI.COMM_WORLD.allReduce(counters, sums, 3, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("counters: sent " + sums[0] + ", helper wake-ups " + sums[1] + ", read by the helper "
                    + sums[2]);
            if (nonBlocking) {
                Check.that(sums[0] > 0, "rank 0 never rang rank 1's doorbell");
                Check.that(sums[2] > 0, "no message was read by rank 1's helper while rank 1 computed");
            } else {
                Check.equal(sums[0], 0, "doorbells rung with no non-blocking receive posted");
                Check.equal(sums[1], 0, "helper wake-ups with no non-blocking receive posted");
            }
            System.out.println("PASS async notifications " + (nonBlocking ? "nonblocking" : "blocking"));
        }
        MPI.Finalize();
    }

    private static volatile long sink;

    private static void computeFor(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = sink;
        while (System.nanoTime() < end) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }
}
