package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import java.util.Arrays;

/**
 * {@code total} messages (default 10,000) of random sizes (mostly small, some past the
 * rendezvous threshold) and random tags, from every rank to random ranks, all at once with
 * non-blocking sends. Every rank derives the whole plan from one seed, so each receiver knows
 * how many messages to expect; it receives them with ANY_SOURCE/ANY_TAG and checks every byte,
 * the tag, and that each sender's messages arrive in the order sent.
 */
public final class RandomStress {
    private static final int HEADER = 12;

    private record Planned(int source, int dest, int tag, int size, int seq) { }

    private RandomStress() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Random plan = new Random(20261122);
        List<Planned> mine = new ArrayList<>();
        int expected = 0;
        int[] nextSeq = new int[size];
        int maxSize = HEADER;
        for (int i = 0; i < total; i++) {
            int source = plan.nextInt(size);
            int dest = plan.nextInt(size);
            int tag = plan.nextInt(1000);
            int length = HEADER + (plan.nextInt(50) == 0 ? plan.nextInt(400_000) : plan.nextInt(2000));
            maxSize = Math.max(maxSize, length);
            Planned p = new Planned(source, dest, tag, length, nextSeq[source]++);
            if (source == rank) {
                mine.add(p);
            }
            if (dest == rank) {
                expected++;
            }
        }
        List<Request> sends = new ArrayList<>();
        for (Planned p : mine) {
            ByteBuffer data = MPI.newByteBuffer(p.size());
            data.putInt(0, p.source()).putInt(4, p.seq()).putInt(8, p.tag());
            Check.fill(MPI.slice(data, HEADER), p.size() - HEADER, p.source() * 1_000_003L + p.seq());
            sends.add(MPI.COMM_WORLD.iSend(data, p.size(), MPI.BYTE, p.dest(), p.tag()));
        }
        ByteBuffer into = MPI.newByteBuffer(maxSize);
        int[] lastSeq = new int[size];
        Arrays.fill(lastSeq, -1);
        for (int i = 0; i < expected; i++) {
            Status status = MPI.COMM_WORLD.recv(into, maxSize, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
            int source = into.getInt(0);
            int seq = into.getInt(4);
            Check.equal(status.getSource(), source, "status source");
            Check.equal(status.getTag(), into.getInt(8), "status tag");
            Check.that(seq > lastSeq[source], "rank " + source + "'s message " + seq + " overtook " + lastSeq[source]);
            lastSeq[source] = seq;
            Check.verify(MPI.slice(into, HEADER), status.getCount(MPI.BYTE) - HEADER, source * 1_000_003L + seq,
                    "message " + seq + " from rank " + source);
        }
        Request.waitAll(sends.toArray(Request[]::new));
        MPI.COMM_WORLD.barrier();
        System.out.println("PASS random stress: rank " + rank + " received " + expected + " of " + total);
        MPI.Finalize();
    }
}
