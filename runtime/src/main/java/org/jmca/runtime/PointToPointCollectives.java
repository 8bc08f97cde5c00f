package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * Collectives written as point-to-point messages on a communicator's collective context, under
 * one tag every rank draws alike: alltoallw (a block per rank, each with its own type) and the
 * neighbourhood collectives of process topologies. No coll component serves these: their blocks
 * differ per peer in ways the coll SPI's calls do not describe.
 */
public final class PointToPointCollectives {
    private PointToPointCollectives() {
    }

    /**
     * One side of an exchange: the whole buffer to every peer ({@code counts} null), or one block
     * per peer, of {@code count} elements one after another ({@code counts} empty) or of
     * {@code counts[i]} at {@code displs[i]}.
     */
    public record Blocks(Object buffer, int count, int[] counts, int[] displs, Type type) {
        public static Blocks whole(Object buffer, int count, Type type) {
            return new Blocks(buffer, count, null, null, type);
        }

        public static Blocks even(Object buffer, int count, Type type) {
            return new Blocks(buffer, count, new int[0], null, type);
        }

        public static Blocks varying(Object buffer, int[] counts, int[] displs, Type type) {
            return new Blocks(buffer, 0, counts, displs, type);
        }

        /** {counts, displacements} of {@code n} blocks. */
        int[][] layout(int n, String what) {
            if (counts.length == 0) {
                int[] each = new int[n];
                int[] at = new int[n];
                for (int i = 0; i < n; i++) {
                    each[i] = count;
                    at[i] = i * count;
                }
                return new int[][] {each, at};
            }
            if (counts.length < n || displs == null || displs.length < n) {
                throw new MpiError(ErrorClass.COUNT, "the " + what + " counts and displacements need " + n
                        + " entries, one per neighbour");
            }
            return new int[][] {counts, displs};
        }

        MemorySegment slice(MemorySegment all, int[][] layout, int i) {
            return all.asSlice((long) layout[1][i] * type.size(), (long) layout[0][i] * type.size());
        }
    }

    /**
     * Starts block j of {@code send} to {@code out[j]} and block i of {@code receive} from
     * {@code in[i]} (ranks as point-to-point calls name them; {@link Communicator#PROC_NULL} is
     * skipped). Complete once every message is.
     */
    public static Communicator.Started exchange(Communicator comm, Blocks send, int[] out, Blocks receive, int[] in) {
        int tag = comm.port.nextTag();
        List<PmlRequest> operations = new ArrayList<>();
        if (out.length > 0 && send.counts() == null) {
            MemorySegment whole = UserBuffer.of(send.buffer(), send.count(), send.type(), false).segment();
            for (int to : out) {
                send(comm, operations, whole, to, tag);
            }
        } else if (out.length > 0) {
            int[][] layout = send.layout(out.length, "send");
            MemorySegment all = UserBuffer.of(send.buffer(), Collectives.span(layout[0], layout[1]), send.type(),
                    false).segment();
            for (int j = 0; j < out.length; j++) {
                send(comm, operations, send.slice(all, layout, j), out[j], tag);
            }
        }
        Runnable unpack = null;
        if (in.length > 0) {
            int[][] layout = receive.layout(in.length, "receive");
            UserBuffer target = UserBuffer.of(receive.buffer(), Collectives.span(layout[0], layout[1]),
                    receive.type(), true);
            for (int i = 0; i < in.length; i++) {
                if (in[i] != Communicator.PROC_NULL) {
                    operations.add(comm.runtime.pml.irecv(receive.slice(target.segment(), layout, i),
                            comm.peers[in[i]], tag, comm.context + 1));
                }
            }
            unpack = target.afterReceive();
        }
        return new Communicator.Started(PmlRequest.allOf(operations), unpack);
    }

    private static void send(Communicator comm, List<PmlRequest> operations, MemorySegment data, int to, int tag) {
        if (to != Communicator.PROC_NULL) {
            operations.add(comm.runtime.pml.isend(data, comm.peers[to], tag, comm.context + 1, SendMode.STANDARD));
        }
    }

    /**
     * alltoallw: block j to rank j and block i from rank i, each block with its own count, type
     * and displacement in bytes, as one message to and from every rank.
     */
    public static Communicator.Started allToAllw(Communicator comm, Buffer sendBuf, int[] sendCount, int[] sDispls,
                                                 Type[] sendTypes, Buffer recvBuf, int[] recvCount, int[] rDispls,
                                                 Type[] recvTypes) {
        int n = comm.peers.length;
        for (Object array : new Object[] {sendCount, sDispls, sendTypes, recvCount, rDispls, recvTypes}) {
            if (array == null || java.lang.reflect.Array.getLength(array) < n) {
                throw new MpiError(ErrorClass.ARG, "alltoallw needs counts, displacements and types for each of the "
                        + n + " " + comm.peerNames());
            }
        }
        int tag = comm.port.nextTag();
        List<PmlRequest> operations = new ArrayList<>();
        List<Runnable> unpack = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            UserBuffer in = UserBuffer.of(UserBuffer.atByte(recvBuf, rDispls[r]), recvCount[r], recvTypes[r], true);
            operations.add(comm.runtime.pml.irecv(in.segment(), comm.peers[r], tag, comm.context + 1));
            if (in.afterReceive() != null) {
                unpack.add(in.afterReceive());
            }
        }
        for (int r = 0; r < n; r++) {
            MemorySegment out = UserBuffer.of(UserBuffer.atByte(sendBuf, sDispls[r]), sendCount[r], sendTypes[r],
                    false).segment();
            operations.add(comm.runtime.pml.isend(out, comm.peers[r], tag, comm.context + 1, SendMode.STANDARD));
        }
        return new Communicator.Started(PmlRequest.allOf(operations),
                unpack.isEmpty() ? null : () -> unpack.forEach(Runnable::run));
    }
}
