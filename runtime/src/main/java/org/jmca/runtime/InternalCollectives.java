package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * The few collectives the runtime itself needs (barrier, agreeing on a context, gathering the
 * colours of a split), on a communicator's collective context with tags users cannot use.
 * Simple and correct; the tuned algorithms belong to the coll framework.
 */
public final class InternalCollectives {
    private static final int TAG_BARRIER = -10;
    private static final int TAG_GATHER = -11;
    private static final int TAG_BCAST = -12;
    private static final int TAG_ROOTED_BCAST = -13;

    private InternalCollectives() {
    }

    /** Dissemination barrier: ceil(log2 n) rounds of one zero-byte message each way. */
    public static void barrier(Communicator comm) {
        JobRuntime rt = comm.runtime;
        int size = comm.size();
        int rank = comm.rank;
        MemorySegment empty = MemorySegment.ofArray(new byte[0]);
        for (int distance = 1; distance < size; distance <<= 1) {
            int to = comm.jobRanks[(rank + distance) % size];
            int from = comm.jobRanks[(rank - distance + size) % size];
            PmlRequest receive = rt.pml.irecv(MemorySegment.ofArray(new byte[0]), from, TAG_BARRIER, comm.context + 1);
            PmlRequest send = rt.pml.isend(empty, to, TAG_BARRIER, comm.context + 1, SendMode.STANDARD);
            rt.progress.waitUntil(() -> receive.isComplete() && send.isComplete());
        }
    }

    /** Every rank's {@code values}, concatenated in rank order (linear gather to rank 0, then broadcast). */
    public static int[] allgather(Communicator comm, int[] values) {
        return allgather(comm, values, comm.context + 1, TAG_GATHER, TAG_BCAST);
    }

    /** As {@link #allgather(Communicator, int[])}, on {@code context} with the given tags. */
    public static int[] allgather(Communicator comm, int[] values, int context, int gatherTag, int bcastTag) {
        JobRuntime rt = comm.runtime;
        int size = comm.size();
        int n = values.length;
        int[] all = new int[size * n];
        if (comm.rank == 0) {
            System.arraycopy(values, 0, all, 0, n);
            PmlRequest[] receives = new PmlRequest[size];
            for (int r = 1; r < size; r++) {
                receives[r] = rt.pml.irecv(MemorySegment.ofArray(all).asSlice(4L * r * n, 4L * n), comm.jobRanks[r],
                        gatherTag, context);
            }
            for (int r = 1; r < size; r++) {
                PmlRequest receive = receives[r];
                rt.progress.waitUntil(receive::isComplete);
            }
            PmlRequest[] sends = new PmlRequest[size];
            for (int r = 1; r < size; r++) {
                sends[r] = rt.pml.isend(MemorySegment.ofArray(all), comm.jobRanks[r], bcastTag, context,
                        SendMode.STANDARD);
            }
            for (int r = 1; r < size; r++) {
                PmlRequest send = sends[r];
                rt.progress.waitUntil(send::isComplete);
            }
        } else {
            PmlRequest send = rt.pml.isend(MemorySegment.ofArray(values), comm.jobRanks[0], gatherTag, context,
                    SendMode.STANDARD);
            PmlRequest receive = rt.pml.irecv(MemorySegment.ofArray(all), comm.jobRanks[0], bcastTag, context);
            rt.progress.waitUntil(() -> send.isComplete() && receive.isComplete());
        }
        return all;
    }

    /** {@code values} of {@code root} (of up to {@code capacity} ints; the others pass null), linearly. */
    public static int[] bcast(Communicator comm, int[] values, int root, int capacity) {
        JobRuntime rt = comm.runtime;
        int context = comm.context + 1;
        if (comm.rank == root) {
            PmlRequest[] sends = new PmlRequest[comm.size()];
            for (int r = 0; r < comm.size(); r++) {
                if (r != root) {
                    sends[r] = rt.pml.isend(MemorySegment.ofArray(values), comm.jobRanks[r], TAG_ROOTED_BCAST, context,
                            SendMode.STANDARD);
                }
            }
            for (PmlRequest send : sends) {
                if (send != null) {
                    rt.progress.waitUntil(send::isComplete);
                }
            }
            return values;
        }
        int[] received = new int[capacity];
        PmlRequest receive = rt.pml.irecv(MemorySegment.ofArray(received), comm.jobRanks[root], TAG_ROOTED_BCAST,
                context);
        rt.progress.waitUntil(receive::isComplete);
        return java.util.Arrays.copyOf(received, (int) (receive.status().byteCount() / Integer.BYTES));
    }

    /** {@code data} of {@code root} (the others pass null), any length. */
    public static byte[] bcastBytes(Communicator comm, byte[] data, int root) {
        boolean mine = comm.rank == root;
        int length = bcast(comm, mine ? new int[] {data.length} : null, root, 1)[0];
        int[] words = new int[(length + 3) / 4];
        if (mine) {
            java.nio.ByteBuffer.wrap(java.util.Arrays.copyOf(data, words.length * 4)).asIntBuffer().get(words);
        }
        int[] received = bcast(comm, mine ? words : null, root, words.length);
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(received.length * 4);
        bytes.asIntBuffer().put(received);
        return java.util.Arrays.copyOf(bytes.array(), length);
    }

    /** The largest {@code value} over the communicator. */
    public static int allreduceMax(Communicator comm, int value) {
        int max = Integer.MIN_VALUE;
        for (int v : allgather(comm, new int[] {value})) {
            max = Math.max(max, v);
        }
        return max;
    }
}
