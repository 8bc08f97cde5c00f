package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * bcast, reduce, allreduce, barrier, gather, scatter, allgather and alltoall at sizes that cross
 * every threshold of coll/gm's selection map and of its eager limit and pipeline blocks, at
 * every root, with and without MPI_IN_PLACE, in heap arrays and direct buffers alternately; each
 * result checked against what the rank computes alone. Args: [largest count] (default 100000 ints).
 */
public final class CollectiveSweep {
    private static final int[] COUNTS = {0, 2, 300, 2048, 4096, 16384, 16400, 65536, 100000};
    private static int rank;
    private static int size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        int largest = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int done = 0;
        for (int k = 0; k < COUNTS.length && COUNTS[k] <= largest; k++) {
            boolean direct = k % 2 == 1;
            int n = COUNTS[k];
            for (int root = 0; root < size; root++) {
                bcast(world, n, root, direct);
                reduce(world, n, root, direct, root % 2 == 1);
                gather(world, n, root, direct, root % 2 == 1);
                scatter(world, n, root, direct, root % 2 == 1);
            }
            allreduce(world, n, direct, false);
            allreduce(world, n, direct, true);
            allgather(world, n, direct, false);
            allgather(world, n, direct, true);
            alltoall(world, n, direct);
            world.barrier();
            done++;
        }
        System.out.println("PASS sweep " + rank + " " + done + " sizes");
        MPI.Finalize();
    }

    private static int value(int r, int i) {
        return r * 1_000_003 + i * 7;
    }

    private static int sum(int i) {
        int total = 0;
        for (int r = 0; r < size; r++) {
            total += value(r, i);
        }
        return total;
    }

    /** A buffer of {@code n} ints: an array, or a direct IntBuffer. */
    private static Object buffer(int n, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(Math.max(4, 4 * n)).order(ByteOrder.nativeOrder()).asIntBuffer()
                : new int[n];
    }

    private static void set(Object buffer, int i, int v) {
        if (buffer instanceof int[] array) {
            array[i] = v;
        } else {
            ((IntBuffer) buffer).put(i, v);
        }
    }

    private static int get(Object buffer, int i) {
        return buffer instanceof int[] array ? array[i] : ((IntBuffer) buffer).get(i);
    }

    private static void check(Object buffer, int from, int n, java.util.function.IntUnaryOperator expected,
                              String what) {
        for (int i = 0; i < n; i++) {
            int got = get(buffer, from + i);
            if (got != expected.applyAsInt(i)) {
                Check.equal(got, expected.applyAsInt(i), what + " element " + (from + i));
            }
        }
    }

    private static String where(String what, int n, int root, boolean direct, boolean inPlace) {
        return what + " of " + n + " ints" + (root >= 0 ? " from root " + root : "") + (direct ? " (direct)" : "")
                + (inPlace ? " in place" : "");
    }

    private static void bcast(Intracomm comm, int n, int root, boolean direct) throws MPIException {
        Object data = buffer(n, direct);
        for (int i = 0; i < n; i++) {
            set(data, i, rank == root ? value(root, i) : -1);
        }
        comm.bcast(data, n, MPI.INT, root);
        check(data, 0, n, i -> value(root, i), where("bcast", n, root, direct, false));
    }

    private static void reduce(Intracomm comm, int n, int root, boolean direct, boolean inPlace) throws MPIException {
        Object mine = buffer(n, direct);
        for (int i = 0; i < n; i++) {
            set(mine, i, value(rank, i));
        }
        Object result = mine;
        if (inPlace) {
            comm.reduce(mine, n, MPI.INT, MPI.SUM, root);
        } else {
            result = buffer(n, direct);
            comm.reduce(mine, result, n, MPI.INT, MPI.SUM, root);
        }
        if (rank == root) {
            check(result, 0, n, CollectiveSweep::sum, where("reduce", n, root, direct, inPlace));
        }
    }

    private static void allreduce(Intracomm comm, int n, boolean direct, boolean inPlace) throws MPIException {
        Object mine = buffer(n, direct);
        for (int i = 0; i < n; i++) {
            set(mine, i, value(rank, i));
        }
        Object result = mine;
        if (inPlace) {
            comm.allReduce(mine, n, MPI.INT, MPI.SUM);
        } else {
            result = buffer(n, direct);
            comm.allReduce(mine, result, n, MPI.INT, MPI.SUM);
        }
        check(result, 0, n, CollectiveSweep::sum, where("allreduce", n, -1, direct, inPlace));
    }

    private static void gather(Intracomm comm, int n, int root, boolean direct, boolean inPlace) throws MPIException {
        Object all = buffer(n * size, direct);
        if (inPlace && rank == root) {
            for (int i = 0; i < n; i++) {
                set(all, rank * n + i, value(rank, i));
            }
            comm.gather(all, n, MPI.INT, root);
        } else {
            Object mine = buffer(n, direct);
            for (int i = 0; i < n; i++) {
                set(mine, i, value(rank, i));
            }
            if (inPlace) {
                comm.gather(mine, n, MPI.INT, root);
            } else {
                comm.gather(mine, n, MPI.INT, all, n, MPI.INT, root);
            }
        }
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                int from = r;
                check(all, r * n, n, i -> value(from, i), where("gather", n, root, direct, inPlace));
            }
        }
    }

    private static void scatter(Intracomm comm, int n, int root, boolean direct, boolean inPlace) throws MPIException {
        Object all = buffer(n * size, direct);
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < n; i++) {
                    set(all, r * n + i, value(r, i));
                }
            }
        }
        if (inPlace && rank == root) {
            comm.scatter(all, n, MPI.INT, root);
            check(all, rank * n, n, i -> value(rank, i), where("scatter", n, root, direct, true));
            return;
        }
        Object mine = buffer(n, direct);
        if (inPlace) {
            comm.scatter(mine, n, MPI.INT, root);
        } else {
            comm.scatter(all, n, MPI.INT, mine, n, MPI.INT, root);
        }
        check(mine, 0, n, i -> value(rank, i), where("scatter", n, root, direct, inPlace));
    }

    private static void allgather(Intracomm comm, int n, boolean direct, boolean inPlace) throws MPIException {
        Object all = buffer(n * size, direct);
        if (inPlace) {
            for (int i = 0; i < n; i++) {
                set(all, rank * n + i, value(rank, i));
            }
            comm.allGather(all, n, MPI.INT);
        } else {
            Object mine = buffer(n, direct);
            for (int i = 0; i < n; i++) {
                set(mine, i, value(rank, i));
            }
            comm.allGather(mine, n, MPI.INT, all, n, MPI.INT);
        }
        for (int r = 0; r < size; r++) {
            int from = r;
            check(all, r * n, n, i -> value(from, i), where("allgather", n, -1, direct, inPlace));
        }
    }

    private static void alltoall(Intracomm comm, int n, boolean direct) throws MPIException {
        Object send = buffer(n * size, direct);
        Object recv = buffer(n * size, direct);
        for (int i = 0; i < n * size; i++) {
            set(send, i, value(rank, i));
        }
        comm.allToAll(send, n, MPI.INT, recv, n, MPI.INT);
        for (int r = 0; r < size; r++) {
            int from = r;
            check(recv, r * n, n, i -> value(from, rank * n + i), where("alltoall", n, -1, direct, false));
        }
    }
}
