package org.jmca.tests.programs;

import static org.jmca.tests.programs.Check.equal;
import static org.jmca.tests.programs.Check.fails;
import static org.jmca.tests.programs.Check.that;

import java.util.Arrays;
import java.util.stream.IntStream;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Status;

/**
 * Intercommunicators between the even and the odd world ranks: creation over COMM_WORLD,
 * groups, point-to-point, every collective in both directions (the results computed again here
 * from the world ranks), merge, dup and the errors MPI names. Any number of ranks from 2.
 */
public final class Intercomms {
    private static int[] localWorld;
    private static int[] remoteWorld;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int world = MPI.COMM_WORLD.getRank();
        int n = MPI.COMM_WORLD.getSize();
        int colour = world % 2;
        Intracomm local = MPI.COMM_WORLD.split(colour, world);
        // as Open MPI's bindings: called on the peer communicator, given the local one
        Intercomm inter = MPI.COMM_WORLD.createIntercomm(local, 0, 1 - colour, 99);
        localWorld = IntStream.range(0, n).filter(w -> w % 2 == colour).toArray();
        remoteWorld = IntStream.range(0, n).filter(w -> w % 2 != colour).toArray();
        int me = inter.getRank();
        int remote = inter.getRemoteSize();

        that(inter.isInter() && !local.isInter(), "isInter");
        equal(inter.getSize(), localWorld.length, "local size");
        equal(remote, remoteWorld.length, "remote size");
        that(Arrays.equals(worldRanks(inter.getRemoteGroup()), remoteWorld), "remote group "
                + Arrays.toString(worldRanks(inter.getRemoteGroup())));
        that(Arrays.equals(worldRanks(inter.getGroup()), localWorld), "local group");

        pointToPoint(inter, me, remote, 5);
        for (int rootColour = 0; rootColour < 2; rootColour++) {
            rooted(inter, colour == rootColour, rootColour == 0 ? 0 : remote - 1, me, remote);
        }
        allToAll(inter, me, remote);
        reductions(inter, me, remote, world);
        inter.barrier();
        inter.iBarrier().waitFor();

        Intracomm merged = inter.merge(colour == 1);
        equal(merged.getSize(), n, "merged size");
        int[] order = IntStream.concat(IntStream.range(0, n).filter(w -> w % 2 == 0),
                IntStream.range(0, n).filter(w -> w % 2 == 1)).toArray();
        equal(order[merged.getRank()], world, "merged rank (low group first)");
        int[] sum = {world};
        merged.allReduce(sum, 1, MPI.INT, MPI.SUM);
        equal(sum[0], (long) n * (n - 1) / 2, "allreduce on the merged communicator");

        Intercomm copy = inter.dup();
        that(copy.isInter() && copy.getRemoteSize() == remote, "dup is an intercommunicator like its original");
        pointToPoint(copy, me, remote, 6);
        Intercomm pending = inter.iDup();
        // other traffic while the iDup is under way; a tag of its own, or a quick sender's next
        // round could meet a receive of the last one (ANY_SOURCE)
        pointToPoint(copy, me, remote, 7);
        pending.getRequest().waitFor();
        that(pending.isInter() && pending.getRemoteSize() == remote, "iDup gives an intercommunicator");
        pointToPoint(pending, me, remote, 8);
        pending.free();

        inter.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_COMM, () -> inter.allReduce(new int[1], 1, MPI.INT, MPI.SUM), "in-place allreduce");
        fails(MPI.ERR_ROOT, () -> inter.bcast(new int[1], 1, MPI.INT, remote), "bcast from a remote rank too high");
        fails(MPI.ERR_RANK, () -> inter.send(new int[1], 1, MPI.INT, remote, 0), "send to a remote rank too high");
        fails(MPI.ERR_COMM, () -> new mpi.Win(java.nio.ByteBuffer.allocateDirect(16), 4, 4, MPI.INFO_NULL, inter), "a window over it");
        that(Intercomm.getParent().isNull(), "a job that was not spawned has no parent");

        copy.free();
        inter.free();
        merged.free();
        System.out.println("PASS intercomm rank " + world);
        MPI.Finalize();
    }

    private static int[] worldRanks(mpi.Group group) throws MPIException {
        int[] ranks = IntStream.range(0, group.getSize()).toArray();
        return mpi.Group.translateRanks(group, ranks, MPI.COMM_WORLD.getGroup());
    }

    /** Every rank sends to every remote rank and receives from each, by rank and from any source. */
    private static void pointToPoint(Intercomm inter, int me, int remote, int tag) throws MPIException {
        mpi.Request[] sends = new mpi.Request[remote];
        int[][] out = new int[remote][];
        for (int r = 0; r < remote; r++) {
            out[r] = new int[] {localWorld[me] * 100 + r};
            sends[r] = inter.iSend(java.nio.IntBuffer.wrap(out[r]), 1, MPI.INT, r, tag);
        }
        boolean[] seen = new boolean[remote];
        for (int i = 0; i < remote; i++) {
            int[] in = new int[1];
            Status status = inter.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, tag);
            int source = status.getSource();
            that(source >= 0 && source < remote && !seen[source], "source " + source);
            seen[source] = true;
            equal(in[0], remoteWorld[source] * 100 + me, "message from remote rank " + source);
        }
        mpi.Request.waitAll(sends);
    }

    /** bcast, gather(v), scatter(v) from the rank {@code root} of the group of colour rootColour. */
    private static void rooted(Intercomm inter, boolean rootGroup, int root, int me, int remote)
            throws MPIException {
        boolean isRoot = rootGroup && me == (root == 0 ? 0 : inter.getSize() - 1);
        int arg = rootGroup ? (isRoot ? MPI.ROOT : MPI.PROC_NULL) : root;
        int rootWorld = rootGroup ? -1 : remoteWorld[root];

        int[] data = isRoot ? new int[] {7, 11, 13, localWorld[me]} : new int[4];
        inter.bcast(data, 4, MPI.INT, arg);
        if (!rootGroup) {
            that(Arrays.equals(data, new int[] {7, 11, 13, rootWorld}), "bcast " + Arrays.toString(data));
        }

        // gather: the other group's {world, 2 world} at the root, by remote rank
        int[] all = new int[2 * remote];
        int[] mine = {localWorld[me], 2 * localWorld[me]};
        inter.gather(mine, 2, MPI.INT, all, 2, MPI.INT, arg);
        if (isRoot) {
            for (int r = 0; r < remote; r++) {
                equal(all[2 * r], remoteWorld[r], "gather block " + r);
                equal(all[2 * r + 1], 2L * remoteWorld[r], "gather block " + r);
            }
        }

        // gatherv: remote rank r sends r + 1 ints, placed backwards
        int[] counts = IntStream.range(0, remote).map(r -> r + 1).toArray();
        int[] displs = new int[remote];
        for (int r = remote - 2; r >= 0; r--) {
            displs[r] = displs[r + 1] + counts[r + 1];
        }
        int[] gathered = new int[remote * (remote + 1) / 2];
        int[] own = new int[me + 1];
        Arrays.fill(own, localWorld[me]);
        if (rootGroup) {
            inter.gatherv(gathered, counts, displs, MPI.INT, arg);
        } else {
            inter.gatherv(own, me + 1, MPI.INT, arg);
        }
        if (isRoot) {
            for (int r = 0; r < remote; r++) {
                for (int k = 0; k < r + 1; k++) {
                    equal(gathered[displs[r] + k], remoteWorld[r], "gatherv element " + k + " of rank " + r);
                }
            }
        }

        // scatter: block r = {100 r, 100 r + 1}
        int[] blocks = IntStream.range(0, 2 * remote).map(i -> 100 * (i / 2) + i % 2).toArray();
        int[] got = new int[2];
        inter.scatter(blocks, 2, MPI.INT, got, 2, MPI.INT, arg);
        if (!rootGroup) {
            that(Arrays.equals(got, new int[] {100 * me, 100 * me + 1}), "scatter " + Arrays.toString(got));
        }

        // scatterv: the root sends remote rank r the r + 1 ints at displs[r]
        int[] source = IntStream.range(0, gathered.length).map(i -> i * 3).toArray();
        int[] part = new int[me + 1];
        if (rootGroup) {
            inter.scatterv(source, counts, displs, MPI.INT, arg);
        } else {
            inter.scatterv(part, me + 1, MPI.INT, arg);
            for (int k = 0; k <= me; k++) {
                equal(part[k], 3L * (rootDispl(me, inter.getSize()) + k), "scatterv element " + k);
            }
        }
    }

    /** The displacement the root (in the other group) gave this rank in scatterv. */
    private static int rootDispl(int rank, int size) {
        int d = 0;
        for (int r = size - 1; r > rank; r--) {
            d += r + 1;
        }
        return d;
    }

    private static void allToAll(Intercomm inter, int me, int remote) throws MPIException {
        int[] world = new int[remote];
        inter.allGather(new int[] {localWorld[me]}, 1, MPI.INT, world, 1, MPI.INT);
        that(Arrays.equals(world, remoteWorld), "allgather " + Arrays.toString(world));

        int[] counts = IntStream.range(0, remote).map(r -> r + 1).toArray();
        int[] displs = IntStream.range(0, remote).map(r -> r * (r + 1) / 2).toArray();
        int[] varying = new int[remote * (remote + 1) / 2];
        int[] own = new int[me + 1];
        Arrays.fill(own, localWorld[me]);
        inter.allGatherv(own, me + 1, MPI.INT, varying, counts, displs, MPI.INT);
        for (int r = 0; r < remote; r++) {
            for (int k = 0; k <= r; k++) {
                equal(varying[displs[r] + k], remoteWorld[r], "allgatherv element " + k + " of rank " + r);
            }
        }

        int[] send = IntStream.range(0, remote).map(j -> localWorld[me] * 1000 + j).toArray();
        int[] recv = new int[remote];
        inter.iAllToAll(java.nio.IntBuffer.wrap(send), 1, MPI.INT, java.nio.IntBuffer.wrap(recv), 1, MPI.INT)
                .waitFor();
        for (int i = 0; i < remote; i++) {
            equal(recv[i], remoteWorld[i] * 1000L + me, "alltoall block " + i);
        }

        // alltoallv: j + 1 copies of (world * 1000 + j) to remote rank j; me + 1 from each
        int[] sendCounts = IntStream.range(0, remote).map(j -> j + 1).toArray();
        int[] sendDispls = IntStream.range(0, remote).map(j -> j * (j + 1) / 2).toArray();
        int[] sendv = new int[remote * (remote + 1) / 2];
        for (int j = 0; j < remote; j++) {
            Arrays.fill(sendv, sendDispls[j], sendDispls[j] + j + 1, localWorld[me] * 1000 + j);
        }
        int[] recvCounts = new int[remote];
        int[] recvDispls = new int[remote];
        Arrays.fill(recvCounts, me + 1);
        Arrays.setAll(recvDispls, i -> i * (me + 1));
        int[] recvv = new int[remote * (me + 1)];
        inter.allToAllv(sendv, sendCounts, sendDispls, MPI.INT, recvv, recvCounts, recvDispls, MPI.INT);
        for (int i = 0; i < recvv.length; i++) {
            equal(recvv[i], remoteWorld[i / (me + 1)] * 1000L + me, "alltoallv element " + i);
        }
    }

    private static void reductions(Intercomm inter, int me, int remote, int world) throws MPIException {
        long remoteSum = Arrays.stream(remoteWorld).asLongStream().sum();

        // reduce to rank 0 of the even group, then to the last rank of the odd group
        for (int rootColour = 0; rootColour < 2; rootColour++) {
            boolean rootGroup = world % 2 == rootColour;
            int rootRank = rootColour == 0 ? 0 : (rootGroup ? inter.getSize() : remote) - 1;
            int arg = rootGroup ? (me == rootRank ? MPI.ROOT : MPI.PROC_NULL) : rootRank;
            long[] result = new long[2];
            inter.reduce(new long[] {world, 1}, result, 2, MPI.LONG, MPI.SUM, arg);
            if (arg == MPI.ROOT) {
                that(result[0] == remoteSum && result[1] == remote, "reduce " + Arrays.toString(result));
            }
        }

        // a non-commutative operation sees the remote operands in rank order: "a then b" keeps a
        Op first = new Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, mpi.Datatype type) {
                System.arraycopy(in, 0, inOut, 0, count);
            }
        }, false);
        int[] kept = new int[1];
        inter.allReduce(new int[] {world}, kept, 1, MPI.INT, first);
        equal(kept[0], remoteWorld[0], "non-commutative allreduce keeps the lowest remote rank's operand");
        first.free();

        double[] max = new double[1];
        inter.iAllReduce(java.nio.DoubleBuffer.wrap(new double[] {world}), java.nio.DoubleBuffer.wrap(max), 1,
                MPI.DOUBLE, MPI.MAX).waitFor();
        equal((long) max[0], remoteWorld[remote - 1], "allreduce MAX");

        // reduce-scatter: the remote vectors (world * 10 + i, of local size x recvcount elements)
        // summed, recvcount (= remote size) elements to each local rank; both groups' totals match
        int block = remote;
        int total = inter.getSize() * block;
        int[] vector = IntStream.range(0, total).map(i -> world * 10 + i).toArray();
        int[] mine = new int[block];
        inter.reduceScatterBlock(vector, mine, block, MPI.INT, MPI.SUM);
        for (int k = 0; k < block; k++) {
            equal(mine[k], 10 * remoteSum + (long) remote * (me * block + k), "reduce_scatter_block element " + k);
        }
        int[] counts = new int[inter.getSize()];
        Arrays.fill(counts, block);
        int[] again = new int[block];
        inter.reduceScatter(vector, again, counts, MPI.INT, MPI.SUM);
        that(Arrays.equals(again, mine), "reduce_scatter with equal counts");
    }
}
