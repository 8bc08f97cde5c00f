package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Broadcasts of random sizes (one byte to above coll_mcast_max_size) from random roots on the
 * world, a split of it and a dup of the split, blocking and non-blocking, and allreduces; every
 * buffer checked against what its root sent. Prints coll/mcast's counters. Args: calls seed
 * [dieAt]: with dieAt, the root of the first world broadcast from that call on halts (as if
 * killed) instead of sending, while the others wait in the broadcast.
 */
public final class McastBcasts {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int calls = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        int dieAt = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Intracomm split = world.split(rank % 2, -rank);
        Intracomm dup = split.dup();
        List<Intracomm> comms = List.of(world, split, dup);
        SplittableRandom random = new SplittableRandom(seed);
        for (int call = 0; call < calls; call++) {
            // every rank draws the same numbers; a rank leaves out the calls of the other half's split
            int which = random.nextInt(comms.size());
            int colour = random.nextInt(2);
            int bytes = random.nextInt(8) == 0 ? 1 + random.nextInt(80_000) : 1 + random.nextInt(2048);
            int rootDraw = random.nextInt(1 << 20);
            boolean nonBlocking = random.nextInt(4) == 0;
            Intracomm comm = comms.get(which);
            if (which == 0 || rank % 2 == colour) {
                int root = rootDraw % comm.getSize();
                long pattern = seed * 1_000_003L + call;
                ByteBuffer buffer = ByteBuffer.allocateDirect(bytes);
                if (comm.getRank() == root) {
                    if (which == 0 && call >= dieAt) {
                        System.out.println("rank " + rank + " halts as the root of call " + call);
                        System.out.flush();
                        Runtime.getRuntime().halt(9);
                    }
                    Check.fill(buffer, bytes, pattern);
                }
                if (nonBlocking) {
                    Request request = comm.iBcast(buffer, bytes, MPI.BYTE, root);
                    request.waitFor();
                } else {
                    comm.bcast(buffer, bytes, MPI.BYTE, root);
                }
                Check.verify(buffer, bytes, pattern, "call " + call + ": bcast of " + bytes + " B from root " + root
                        + " on communicator " + which);
            }
            if (call % 5 == 0) {
                long[] sum = {rank + 1L};
                world.allReduce(sum, 1, MPI.LONG, MPI.SUM);
                int n = world.getSize();
                Check.equal(sum[0], (long) n * (n + 1) / 2, "allreduce after call " + call);
            }
        }
        List<String> counters = new ArrayList<>();
        for (String name : List.of("coll_mcast_datagrams", "coll_mcast_retransmissions", "coll_mcast_acks",
                "coll_mcast_nacks", "coll_mcast_duplicates", "coll_mcast_fallbacks", "coll_mcast_credit_requests",
                "coll_mcast_overruns")) {
            counters.add(name.substring("coll_mcast_".length()) + "=" + MPI.performanceVariable(name));
        }
        System.out.println("rank " + rank + " mcast " + String.join(" ", counters));
        dup.free();
        split.free();
        System.out.println("PASS mcast " + rank);
        MPI.Finalize();
    }
}
