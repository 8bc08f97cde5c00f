package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Random interleavings of computation and MPI calls, for asynchronous progress: in each round
 * every rank sends one message to each neighbour on a ring (random sizes from empty to 4 MiB,
 * direct or heap buffers, standard or synchronous sends), then receives the two messages sent
 * to it, each in a random style — post, compute, wait; post, then compute and test in turns;
 * compute, then a blocking receive; compute and probe, then receive — with random computation
 * between every step. Every message carries its sender's sequence number and a pattern: the
 * receiver checks that each neighbour's messages arrive all, once, in order and intact.
 *
 * <p>Arguments: rounds (default 200), and "expect-async" to also require that some rendezvous
 * was progressed by a helper thread while its receiver computed.
 */
public final class AsyncStress {
    private static final int HEADER = 8;
    private static final int MAX = 4 << 20;
    private static final int RIGHT = 1;
    private static final int LEFT = 2;

    private AsyncStress() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        boolean expectAsync = args.length > 1 && args[1].equals("expect-async");
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        Random random = new Random(20261123L * (rank + 1));
        ByteBuffer[] out = {MPI.newByteBuffer(MAX), MPI.newByteBuffer(MAX)};
        ByteBuffer[] directIn = {MPI.newByteBuffer(MAX), MPI.newByteBuffer(MAX)};
        ByteBuffer[] heapIn = {ByteBuffer.wrap(new byte[MAX]).order(ByteOrder.nativeOrder()),
            ByteBuffer.wrap(new byte[MAX]).order(ByteOrder.nativeOrder())};
        int[] nextSeq = new int[2];
        int[] expectedSeq = new int[2];
        long rendezvousReceived = 0;
        for (int round = 0; round < rounds; round++) {
            // Sizes are drawn from the round and the sender, so the receiver knows them too.
            int toRight = sizeOf(round, rank, RIGHT);
            int toLeft = sizeOf(round, rank, LEFT);
            Request[] sends = {
                send(out[0], toRight, right, RIGHT, rank, nextSeq[0]++, random),
                send(out[1], toLeft, left, LEFT, rank, nextSeq[1]++, random),
            };
            compute(random);
            int fromLeft = sizeOf(round, left, RIGHT);
            int fromRight = sizeOf(round, right, LEFT);
            ByteBuffer intoLeft = random.nextInt(5) == 0 ? heapIn[0] : directIn[0];
            ByteBuffer intoRight = random.nextInt(5) == 0 ? heapIn[1] : directIn[1];
            receive(intoLeft, fromLeft, left, RIGHT, expectedSeq[0]++, random);
            receive(intoRight, fromRight, right, LEFT, expectedSeq[1]++, random);
            rendezvousReceived += (fromLeft > 4096 ? 1 : 0) + (fromRight > 4096 ? 1 : 0);
            compute(random);
            for (Request s : sends) {
                s.waitFor();
            }
        }
        long asyncHere = MPI.performanceVariable("pml_ob1_async_rendezvous");
        long[] asyncAll = new long[1];
        MPI.COMM_WORLD.allReduce(new long[] {asyncHere}, asyncAll, 1, MPI.LONG, MPI.SUM);
        if (expectAsync) {
            Check.that(asyncAll[0] > 0, "no rendezvous was progressed asynchronously in " + rounds + " rounds");
        }
        MPI.COMM_WORLD.barrier();
        System.out.println("PASS async stress: rank " + rank + " received " + (2 * rounds) + " messages ("
                + rendezvousReceived + " rendezvous), " + asyncHere + " read by the helper thread");
        MPI.Finalize();
    }

    /** Mostly rendezvous sizes, some eager ones and some empty. */
    private static int sizeOf(int round, int sender, int direction) {
        Random plan = new Random(round * 7919L + sender * 104_729L + direction);
        return switch (plan.nextInt(8)) {
            case 0 -> HEADER;
            case 1, 2 -> HEADER + plan.nextInt(4000);
            case 3 -> HEADER + plan.nextInt(MAX - HEADER);
            default -> HEADER + 8192 + plan.nextInt(1 << 20);
        };
    }

    private static Request send(ByteBuffer data, int length, int dest, int tag, int rank, int seq, Random random)
            throws MPIException {
        data.putInt(0, rank).putInt(4, seq);
        Check.fill(MPI.slice(data, HEADER), length - HEADER, seed(rank, tag, seq));
        return random.nextInt(4) == 0 ? MPI.COMM_WORLD.isSend(data, length, MPI.BYTE, dest, tag)
                : MPI.COMM_WORLD.iSend(data, length, MPI.BYTE, dest, tag);
    }

    private static void receive(ByteBuffer into, int length, int source, int tag, int seq, Random random)
            throws MPIException {
        Status status;
        switch (random.nextInt(4)) {
            case 0 -> {
                Request request = MPI.COMM_WORLD.iRecv(into, length, MPI.BYTE, source, tag);
                compute(random);
                status = request.waitStatus();
            }
            case 1 -> {
                Request request = MPI.COMM_WORLD.iRecv(into, length, MPI.BYTE, source, tag);
                Status done;
                while ((done = request.testStatus()) == null) {
                    computeFor(random.nextInt(50_000));
                }
                status = done;
            }
            case 2 -> {
                compute(random);
                status = MPI.COMM_WORLD.recv(into, length, MPI.BYTE, source, tag);
            }
            default -> {
                while (MPI.COMM_WORLD.iProbe(source, tag) == null) {
                    computeFor(random.nextInt(50_000));
                }
                status = MPI.COMM_WORLD.recv(into, length, MPI.BYTE, source, tag);
            }
        }
        String what = "message " + seq + " from rank " + source + " with tag " + tag;
        Check.equal(status.getCount(MPI.BYTE), length, what + ": length");
        Check.equal(into.getInt(0), source, what + ": sender in the header");
        Check.equal(into.getInt(4), seq, what + ": sequence number (lost, duplicated or overtaken)");
        Check.verify(MPI.slice(into, HEADER), length - HEADER, seed(source, tag, seq), what);
    }

    private static long seed(int source, int tag, int seq) {
        return source * 1_000_003L + tag * 7_777L + seq;
    }

    /** Up to 300 µs of computation, sometimes none. */
    private static void compute(Random random) {
        if (random.nextInt(4) != 0) {
            computeFor(random.nextInt(300_000));
        }
    }

    private static volatile long sink;

    private static void computeFor(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = sink;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }
}
