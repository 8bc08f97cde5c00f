package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32C;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * {@code count} messages (default 1,000,000) round the ring of ranks: each rank sends to its
 * right neighbour and receives from its left one. Sizes are random up to 4 MiB, mostly small
 * (one in a thousand is large, so the run stays short). Each message carries its sequence
 * number, its length and a CRC-32C of its payload, which the receiver checks.
 */
public final class RingStress {
    private static final int HEADER = 16;
    private static final int MAX = 4 << 20;

    private RingStress() {
    }

    private static int size(Random random) {
        return HEADER + (random.nextInt(1000) == 0 ? random.nextInt(MAX - HEADER + 1)
                : random.nextInt(random.nextBoolean() ? 64 : 4096));
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int ranks = MPI.COMM_WORLD.getSize();
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int right = (rank + 1) % ranks;
        int left = (rank + ranks - 1) % ranks;
        Random sending = new Random(rank);
        ByteBuffer out = MPI.newByteBuffer(MAX);
        ByteBuffer in = MPI.newByteBuffer(MAX);
        for (int i = 0; i < MAX; i++) {
            out.put(i, (byte) (i * 131 + rank));
        }
        CRC32C crc = new CRC32C();
        long bytes = 0;
        long start = System.nanoTime();
        for (int seq = 0; seq < count; seq++) {
            int length = size(sending);
            out.put(HEADER, (byte) seq);
            crc.reset();
            crc.update(MPI.slice(out, HEADER).limit(length - HEADER));
            out.putInt(0, seq).putInt(4, length).putLong(8, crc.getValue());
            Request receive = MPI.COMM_WORLD.iRecv(in, MAX, MPI.BYTE, left, 1);
            Request send = MPI.COMM_WORLD.iSend(out, length, MPI.BYTE, right, 1);
            Status status = receive.waitStatus();
            send.waitFor();
            int got = status.getCount(MPI.BYTE);
            Check.equal(in.getInt(0), seq, "sequence from rank " + left);
            Check.equal(in.getInt(4), got, "length of message " + seq);
            crc.reset();
            crc.update(MPI.slice(in, HEADER).limit(got - HEADER));
            Check.that(crc.getValue() == in.getLong(8), "CRC-32C of message " + seq + " (" + got + " bytes) from rank " + left);
            bytes += got;
        }
        MPI.COMM_WORLD.barrier();
        System.out.printf("PASS ring stress: rank %d received %d messages, %.1f MB, in %.1f s%n", rank, count,
                bytes / 1e6, (System.nanoTime() - start) / 1e9);
        MPI.Finalize();
    }
}
