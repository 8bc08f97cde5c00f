package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;

/**
 * Alltoall (Open MPI's numbering: 1 linear, 2 pairwise, 3 modified Bruck, 4 linear with at most
 * max-requests exchanges in flight, 5 two-proc) and alltoallv (1 basic linear, 2 pairwise).
 */
public final class Alltoalls {
    private Alltoalls() {
    }

    /** Where rank r's block lies in the send and in the receive buffer. */
    private record Blocks(MemorySegment send, MemorySegment recv, long[] sendOffsets, long[] sendLengths,
                          long[] recvOffsets, long[] recvLengths) {
        MemorySegment out(int rank) {
            return send.asSlice(sendOffsets[rank], sendLengths[rank]);
        }

        MemorySegment in(int rank) {
            return recv.asSlice(recvOffsets[rank], recvLengths[rank]);
        }
    }

    /** The call's blocks; in place, the send side is a copy of the receive buffer. */
    private static Blocks blocks(Schedule s, CollCall c) {
        int size = s.size();
        long[] so = new long[size];
        long[] sl = new long[size];
        long[] ro = new long[size];
        long[] rl = new long[size];
        boolean vector = c.counts() != null;
        long end = 0;
        for (int r = 0; r < size; r++) {
            ro[r] = vector ? c.bytes(c.displs()[r]) : c.bytes((long) r * c.count());
            rl[r] = vector ? c.bytes(c.counts()[r]) : c.bytes(c.count());
            end = Math.max(end, ro[r] + rl[r]);
            boolean sameAsRecv = c.inPlace() || !vector;
            so[r] = sameAsRecv ? ro[r] : c.bytes(c.sendDispls()[r]);
            sl[r] = sameAsRecv ? rl[r] : c.bytes(c.sendCounts()[r]);
        }
        MemorySegment send = c.send();
        if (c.inPlace()) {
            send = Schedule.scratch(end);
            MemorySegment.copy(c.recv(), 0, send, 0, end);
        }
        return new Blocks(send, c.recv(), so, sl, ro, rl);
    }

    /** Every exchange posted at once. */
    public static void linear(Schedule s, CollCall c) {
        linearSync(s, c, 0);
    }

    /** At most {@code maxRequests} exchanges in flight (0: all at once). */
    public static void linearSync(Schedule s, CollCall c, int maxRequests) {
        Blocks b = blocks(s, c);
        int size = s.size();
        int rank = s.rank();
        s.copy(b.out(rank), b.in(rank));
        int batch = maxRequests <= 0 ? size : Math.max(1, maxRequests / 2);
        int inBatch = 0;
        for (int k = 1; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            s.recv(b.in(from), from).send(b.out(to), to);
            if (++inBatch == batch) {
                s.round();
                inBatch = 0;
            }
        }
    }

    /** size - 1 steps: in step k, send to rank + k and receive from rank - k. */
    public static void pairwise(Schedule s, CollCall c) {
        Blocks b = blocks(s, c);
        int size = s.size();
        int rank = s.rank();
        s.copy(b.out(rank), b.in(rank));
        for (int k = 1; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            s.send(b.out(to), to).recv(b.in(from), from).round();
        }
    }

    public static void twoProc(Schedule s, CollCall c) {
        Blocks b = blocks(s, c);
        int peer = 1 - s.rank();
        s.copy(b.out(s.rank()), b.in(s.rank()));
        s.send(b.out(peer), peer).recv(b.in(peer), peer);
    }

    /**
     * Modified Bruck: blocks rotated so that index j is meant for rank + j; in step k every block
     * whose index has bit k set moves 2^k ranks on (packed into one message); a final rotation
     * puts block j, which came from rank - j, in its place. ceil(log2 size) messages per rank.
     */
    public static void modifiedBruck(Schedule s, CollCall c) {
        Blocks b = blocks(s, c);
        int size = s.size();
        int rank = s.rank();
        long block = c.bytes(c.count());
        MemorySegment work = Schedule.scratch(block * size);
        for (int j = 0; j < size; j++) {
            s.copy(b.out((rank + j) % size), work.asSlice(j * block, block));
        }
        MemorySegment outgoing = Schedule.scratch(block * size);
        MemorySegment incoming = Schedule.scratch(block * size);
        for (int d = 1; d < size; d <<= 1) {
            int moving = 0;
            for (int j = 0; j < size; j++) {
                if ((j & d) != 0) {
                    s.copy(work.asSlice(j * block, block), outgoing.asSlice(moving * block, block));
                    moving++;
                }
            }
            long bytes = moving * block;
            s.send(outgoing.asSlice(0, bytes), (rank + d) % size)
                    .recv(incoming.asSlice(0, bytes), (rank - d + size) % size).round();
            int unpacked = 0;
            for (int j = 0; j < size; j++) {
                if ((j & d) != 0) {
                    s.copy(incoming.asSlice(unpacked * block, block), work.asSlice(j * block, block));
                    unpacked++;
                }
            }
        }
        for (int j = 0; j < size; j++) {
            s.copy(work.asSlice(j * block, block), b.in((rank - j + size) % size));
        }
    }
}
