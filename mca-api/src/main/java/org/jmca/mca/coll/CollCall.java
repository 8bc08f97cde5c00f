package org.jmca.mca.coll;

import java.lang.foreign.MemorySegment;

/**
 * The arguments of one collective call, in the form every function shares. Counts and
 * displacements are in elements of {@code elementSize} bytes. A null {@code send} means
 * MPI_IN_PLACE: the rank's own contribution is already in {@code recv} (for gather only at the
 * root). For scatter and scatterv, in place is a null {@code recv} at the root, which keeps its
 * block in the send buffer.
 *
 * <table>
 *   <caption>Which fields each function reads</caption>
 *   <tr><td>bcast</td><td>recv (the buffer), count, root</td></tr>
 *   <tr><td>gather, scatter, allgather, alltoall</td><td>send, recv, count (per rank), root</td></tr>
 *   <tr><td>gatherv, allgatherv</td><td>send, count (own), recv, counts, displs, root</td></tr>
 *   <tr><td>scatterv</td><td>send, counts, displs, recv, count (own), root</td></tr>
 *   <tr><td>alltoallv</td><td>send, sendCounts, sendDispls, recv, counts, displs</td></tr>
 *   <tr><td>reduce, allreduce, scan, exscan, reduce_scatter_block</td><td>send, recv, count, op, root</td></tr>
 *   <tr><td>reduce_scatter</td><td>send, recv, counts, op</td></tr>
 * </table>
 *
 * <p>On an intercommunicator ({@link CollCommunicator#isInter()}) data goes between the groups,
 * as MPI 3.1 section 5.2.2 defines it, and blocks are per rank of the other group: gather's
 * {@code recv}, scatter's {@code send}, the all-to-all functions' blocks and the vectors' counts
 * have {@link CollCommunicator#remoteSize()} of them. In a rooted function the root's {@code root}
 * is {@link #ROOT}, the rest of its group's {@link #PROC_NULL} (they take no part), and the other
 * group's the root's rank in its group. A null {@code send} or {@code recv} is then the side a
 * rank does not have (the root sends in bcast, receives in gather), never in place. What a rank
 * sends need not be the size of what it receives (MPI matches each group's send with the other
 * group's receive): the blocks it receives are {@code count} elements (or the vectors'), a single
 * block it sends is all of {@code send}, and alltoall's send blocks share {@code send} evenly.
 * reduce_scatter's counts are this group's: the other group's vectors, of their sum, are reduced
 * and scattered here.
 *
 * @param tag the tag every message of this call uses; unique among the calls in flight on the
 *            communicator, so concurrent non-blocking collectives never mix
 */
public record CollCall(MemorySegment send, MemorySegment recv, int count, int[] sendCounts, int[] sendDispls,
                       int[] counts, int[] displs, int elementSize, int root, Reduction op, int tag) {

    /** On an intercommunicator, the {@code root} of the rooted function's root (MPI_ROOT). */
    public static final int ROOT = -4;
    /** On an intercommunicator, the {@code root} of the root's group's other ranks (MPI_PROC_NULL). */
    public static final int PROC_NULL = -2;

    /** A call of a function without vectors. */
    public static CollCall of(MemorySegment send, MemorySegment recv, int count, int elementSize, int root,
                              Reduction op, int tag) {
        return new CollCall(send, recv, count, null, null, null, null, elementSize, root, op, tag);
    }

    public boolean inPlace() {
        return send == null;
    }

    /** Bytes of {@code elements} elements. */
    public long bytes(long elements) {
        return elements * elementSize;
    }

    /** The part of the receive buffer that holds block {@code rank} of {@code count} elements. */
    public MemorySegment recvBlock(int rank) {
        return recv.asSlice(bytes((long) rank * count), bytes(count));
    }

    /** The part of the send buffer that holds block {@code rank} of {@code count} elements. */
    public MemorySegment sendBlock(int rank) {
        return send.asSlice(bytes((long) rank * count), bytes(count));
    }
}
