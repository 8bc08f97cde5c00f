package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;

/**
 * Every collective of the mpi API, blocking and non-blocking, with in-place forms, several
 * datatypes, MINLOC/MAXLOC and a non-commutative user operation, each result checked against
 * what the rank computes alone. Args: [large-count] (default 300000).
 */
public final class Collectives {
    private static int rank;
    private static int size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;

        world.barrier();
        world.iBarrier().waitFor();
        broadcasts(world, large);
        gathersAndScatters(world);
        allGathersAndAllToAll(world);
        reductions(world, large);
        prefixesAndReduceScatter(world);
        nonBlockingTogether(world);
        Intracomm dup = world.dup();
        reductions(dup, 1000);
        dup.free();
        System.out.println("PASS collectives " + rank);
        MPI.Finalize();
    }

    private static int value(int r, int i) {
        return r * 1_000_003 + i * 7;
    }

    private static void broadcasts(Intracomm comm, int large) throws MPIException {
        int root = size - 1;
        int[] data = new int[large];
        if (rank == root) {
            Arrays.setAll(data, i -> value(root, i));
        }
        comm.bcast(data, large, MPI.INT, root);
        for (int i = 0; i < large; i++) {
            Check.equal(data[i], value(root, i), "bcast element " + i);
        }
        IntBuffer direct = ByteBuffer.allocateDirect(4 * 100).order(ByteOrder.nativeOrder()).asIntBuffer();
        if (rank == 0) {
            for (int i = 0; i < 100; i++) {
                direct.put(i, -i);
            }
        }
        comm.iBcast(direct, 100, MPI.INT, 0).waitFor();
        Check.equal(direct.get(99), -99, "iBcast into a direct buffer");
        boolean[] flags = new boolean[5];
        if (rank == 0) {
            flags[3] = true;
        }
        comm.bcast(flags, 5, MPI.BOOLEAN, 0);
        Check.that(flags[3] && !flags[2], "bcast of booleans");
    }

    private static void gathersAndScatters(Intracomm comm) throws MPIException {
        int root = size / 2;
        int[] mine = {value(rank, 0), value(rank, 1), value(rank, 2)};
        int[] all = new int[3 * size];
        comm.gather(mine, 3, MPI.INT, all, 3, MPI.INT, root);
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                Check.equal(all[3 * r + 2], value(r, 2), "gather block " + r);
            }
        }
        int[] inPlace = new int[3 * size];
        System.arraycopy(mine, 0, inPlace, rank == root ? 3 * rank : 0, 3);
        comm.gather(rank == root ? inPlace : mine, 3, MPI.INT, root);
        if (rank == root) {
            Check.that(Arrays.equals(inPlace, all), "gather in place equals gather");
        }
        // gatherv: rank r sends r + 1 ints, placed with a gap of one
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0, at = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = at + 1;
            at += r + 2;
        }
        int[] v = new int[rank + 1];
        Arrays.fill(v, value(rank, 5));
        int[] gathered = new int[displs[size - 1] + size + 1];
        Arrays.fill(gathered, -1);
        if (rank == root) {
            comm.gatherv(v, rank + 1, MPI.INT, gathered, counts, displs, MPI.INT, root);
            for (int r = 0; r < size; r++) {
                Check.equal(gathered[displs[r] + r], value(r, 5), "gatherv block " + r);
                Check.equal(gathered[displs[r] - 1], -1, "gatherv gap before block " + r);
            }
        } else {
            comm.gatherv(v, rank + 1, MPI.INT, root);
        }
        // scatter and scatterv from the root back
        int[] block = new int[3];
        comm.scatter(all, 3, MPI.INT, block, 3, MPI.INT, root);
        Check.that(Arrays.equals(block, mine), "scatter gives each rank its gathered block");
        int[] back = new int[rank + 1];
        if (rank == root) {
            comm.scatterv(gathered, counts, displs, MPI.INT, back, rank + 1, MPI.INT, root);
        } else {
            comm.scatterv(back, rank + 1, MPI.INT, root);
        }
        Check.equal(back[rank], value(rank, 5), "scatterv block");
    }

    private static void allGathersAndAllToAll(Intracomm comm) throws MPIException {
        long[] all = new long[2 * size];
        comm.allGather(new long[] {rank, -rank}, 2, MPI.LONG, all, 2, MPI.LONG);
        for (int r = 0; r < size; r++) {
            Check.equal(all[2 * r + 1], -r, "allGather block " + r);
        }
        double[] inPlace = new double[size];
        inPlace[rank] = rank + 0.5;
        comm.allGather(inPlace, 1, MPI.DOUBLE);
        for (int r = 0; r < size; r++) {
            Check.that(inPlace[r] == r + 0.5, "allGather in place block " + r);
        }
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (r % 3) + 1;
            displs[r] = total;
            total += counts[r];
        }
        byte[] v = new byte[total];
        for (int i = 0; i < counts[rank]; i++) {
            v[displs[rank] + i] = (byte) (rank * 10 + i);
        }
        comm.allGatherv(v, counts, displs, MPI.BYTE);
        for (int r = 0; r < size; r++) {
            Check.equal(v[displs[r] + counts[r] - 1], (byte) (r * 10 + counts[r] - 1), "allGatherv block " + r);
        }
        int[] send = new int[size * 2];
        for (int to = 0; to < size; to++) {
            send[2 * to] = value(rank, to);
            send[2 * to + 1] = -value(rank, to);
        }
        int[] recv = new int[size * 2];
        comm.allToAll(send, 2, MPI.INT, recv, 2, MPI.INT);
        for (int from = 0; from < size; from++) {
            Check.equal(recv[2 * from], value(from, rank), "allToAll block from " + from);
        }
        // alltoallv: rank r sends (r + to) % 3 ints to each rank
        int[] sc = new int[size];
        int[] sd = new int[size];
        int[] rc = new int[size];
        int[] rd = new int[size];
        int sAt = 0;
        int rAt = 0;
        for (int j = 0; j < size; j++) {
            sc[j] = (rank + j) % 3;
            sd[j] = sAt;
            sAt += sc[j];
            rc[j] = (j + rank) % 3;
            rd[j] = rAt;
            rAt += rc[j];
        }
        int[] sv = new int[sAt];
        for (int j = 0; j < size; j++) {
            Arrays.fill(sv, sd[j], sd[j] + sc[j], value(rank, j));
        }
        int[] rv = new int[rAt];
        comm.allToAllv(sv, sc, sd, MPI.INT, rv, rc, rd, MPI.INT);
        for (int j = 0; j < size; j++) {
            if (rc[j] > 0) {
                Check.equal(rv[rd[j]], value(j, rank), "allToAllv block from " + j);
            }
        }
    }

    /** (a, b) is x -> a * x + b; "f op g" applies f first, so the order of ranks shows in the result. */
    static final class ThenApply extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            int[] in = (int[]) inVec;
            int[] io = (int[]) inOutVec;
            for (int i = 0; i < count; i++) {
                int a = io[2 * i] * in[2 * i];
                int b = io[2 * i] * in[2 * i + 1] + io[2 * i + 1];
                io[2 * i] = a;
                io[2 * i + 1] = b;
            }
        }
    }

    private static void reductions(Intracomm comm, int large) throws MPIException {
        int root = size - 1;
        long[] sum = new long[3];
        comm.reduce(new long[] {rank, 1, (long) rank * rank}, sum, 3, MPI.LONG, MPI.SUM, root);
        if (rank == root) {
            long squares = 0;
            for (int r = 0; r < size; r++) {
                squares += (long) r * r;
            }
            Check.equal(sum[2], squares, "reduce SUM of squares");
            Check.equal(sum[1], size, "reduce SUM of ones");
        }
        double[] max = {rank * 1.5, -rank};
        comm.allReduce(max, 2, MPI.DOUBLE, MPI.MAX);
        Check.that(max[0] == (size - 1) * 1.5 && max[1] == 0, "allReduce MAX in place");
        int[] big = new int[large];
        Arrays.setAll(big, i -> i + rank);
        int[] bigSum = new int[large];
        comm.allReduce(big, bigSum, large, MPI.INT, MPI.SUM);
        int ranksSum = size * (size - 1) / 2;
        for (int i = 0; i < large; i += 997) {
            Check.equal(bigSum[i], (long) size * i + ranksSum, "large allReduce element " + i);
        }
        // MINLOC on INT2: the smallest value is held by the last rank, at two ranks' worth of index
        int[] pair = {10 - rank, rank};
        int[] minloc = new int[2];
        comm.allReduce(pair, minloc, 1, MPI.INT2, MPI.MINLOC);
        Check.equal(minloc[0], 10 - (size - 1), "MINLOC value");
        Check.equal(minloc[1], size - 1, "MINLOC index");
        ByteBuffer dpair = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        dpair.putDouble(0, rank % 2 == 0 ? 5.0 : 1.0).putInt(8, rank);
        ByteBuffer maxloc = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        comm.allReduce(dpair, maxloc, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
        Check.that(maxloc.getDouble(0) == 5.0 && maxloc.getInt(8) == 0, "MAXLOC on DOUBLE_INT: ties take the lowest index");
        boolean[] all = {true, rank != 1};
        comm.allReduce(all, 2, MPI.BOOLEAN, MPI.LAND);
        Check.that(all[0] && (all[1] == (size < 2)), "allReduce LAND on booleans");
        // a non-commutative user operation: the composition of every rank's map, in rank order
        Op compose = new Op(new ThenApply(), false);
        int[] map = {rank + 2, rank};
        int[] composed = new int[2];
        comm.reduce(map, composed, 1, MPI.INT2, compose, 0);
        comm.allReduce(map, 1, MPI.INT2, compose);
        int a = 1;
        int b = 0;
        for (int r = 0; r < size; r++) {
            b = (r + 2) * b + r;
            a = (r + 2) * a;
        }
        if (rank == 0) {
            Check.that(composed[0] == a && composed[1] == b, "non-commutative reduce keeps rank order");
        }
        Check.that(map[0] == a && map[1] == b, "non-commutative allReduce keeps rank order");
        int[] local = {1, 2};
        int[] into = {3, 4};
        Intracomm.reduceLocal(local, into, 1, MPI.INT2, compose);
        Check.that(into[0] == 3 && into[1] == 3 * 2 + 4, "reduceLocal applies in op inout");
        comm.setErrhandler(MPI.ERRORS_RETURN);
        try {
            comm.allReduce(map, map, 1, MPI.INT2, compose);
            throw new AssertionError("aliased send and receive buffers were accepted");
        } catch (MPIException e) {
            Check.that(e.getErrorClass() == MPI.ERR_BUFFER && e.getMessage().contains("in-place"), e.getMessage());
        }
        try {
            comm.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BXOR);
            throw new AssertionError("BXOR on doubles was accepted");
        } catch (MPIException e) {
            Check.that(e.getErrorClass() == MPI.ERR_OP && e.getMessage().contains("MPI.DOUBLE"), e.getMessage());
        } finally {
            comm.setErrhandler(MPI.ERRORS_ARE_FATAL);
        }
    }

    private static void prefixesAndReduceScatter(Intracomm comm) throws MPIException {
        int[] prefix = new int[1];
        comm.scan(new int[] {rank + 1}, prefix, 1, MPI.INT, MPI.SUM);
        Check.equal(prefix[0], (rank + 1) * (rank + 2) / 2, "scan");
        int[] before = {-7};
        comm.exScan(new int[] {rank + 1}, before, 1, MPI.INT, MPI.SUM);
        Check.equal(before[0], rank == 0 ? -7 : rank * (rank + 1) / 2, "exScan (rank 0 untouched)");
        int[] counts = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 2 + 1;
            total += counts[r];
        }
        int[] vector = new int[total];
        Arrays.setAll(vector, i -> i * (rank + 1));
        int[] block = new int[counts[rank]];
        comm.reduceScatter(vector, block, counts, MPI.INT, MPI.SUM);
        int first = 0;
        for (int r = 0; r < rank; r++) {
            first += counts[r];
        }
        int ranks = size * (size + 1) / 2;
        Check.equal(block[0], (long) first * ranks, "reduceScatter first element");
        int[] whole = new int[2 * size];
        Arrays.setAll(whole, i -> i + rank);
        comm.reduceScatterBlock(whole, 2, MPI.INT, MPI.SUM);
        Check.equal(whole[1], (long) size * (2 * rank + 1) + size * (size - 1) / 2, "reduceScatterBlock in place");
    }

    /** Several non-blocking collectives in flight at once, completed together. */
    private static void nonBlockingTogether(Intracomm comm) throws MPIException {
        IntBuffer a = ByteBuffer.allocateDirect(4 * 64).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer aSum = ByteBuffer.allocateDirect(4 * 64).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer b = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer bAll = ByteBuffer.allocateDirect(4 * size).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer c = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer cScan = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer cSum = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int i = 0; i < 64; i++) {
            a.put(i, i * rank);
        }
        b.put(0, rank * 3);
        c.put(0, 1);
        Request[] requests = {
            comm.iAllReduce(a, aSum, 64, MPI.INT, MPI.SUM),
            comm.iAllGather(b, 1, MPI.INT, bAll, 1, MPI.INT),
            comm.iScan(c, cScan, 1, MPI.INT, MPI.SUM),
            comm.iReduce(c, cSum, 1, MPI.INT, MPI.SUM, 0),
        };
        Request.waitAll(requests);
        Check.equal(aSum.get(63), 63L * size * (size - 1) / 2, "iAllReduce");
        Check.equal(bAll.get(size - 1), (size - 1) * 3, "iAllGather");
        Check.equal(cScan.get(0), rank + 1, "iScan");
        if (rank == 0) {
            Check.equal(cSum.get(0), size, "iReduce");
        }
    }
}
