package org.jmca.mpi.training;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The training run behind the ahead-of-time cache that the build ships with the runtime
 * ({@code lib/jmca.aot}, JEP 483/515): what an MPI application does first — start, point-to-point
 * messages small and large, blocking and not, the common collectives on the common types —
 * repeated until the JIT has profiled it. Ranks then start with these classes loaded and linked
 * and with these profiles, so the JIT compiles the hot paths at once instead of after thousands
 * of slow calls of the user's.
 *
 * <p>Run by the build on 2 ranks of jmpirun; {@code ROUNDS} (default 20000) sets the length.
 */
public final class AotTraining {
    private static final int LARGE = 1 << 20;

    private AotTraining() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int peer = rank ^ 1;
        byte[] small = new byte[8];
        byte[] large = new byte[LARGE];
        double[] one = {rank};
        double[] result = new double[1];
        int[] ints = new int[size];
        int[] gathered = new int[size * size];
        long[] longs = {rank};
        long[] longResult = new long[1];
        for (int i = 0; i < rounds; i++) {
            if (peer < size) {
                exchange(rank, peer, small, 8);
            }
            MPI.COMM_WORLD.allReduce(one, result, 1, MPI.DOUBLE, MPI.SUM);
            MPI.COMM_WORLD.bcast(small, 8, MPI.BYTE, 0);
            MPI.COMM_WORLD.barrier();
            if (i % 8 == 0) {
                MPI.COMM_WORLD.allReduce(longs, longResult, 1, MPI.LONG, MPI.MAX);
                MPI.COMM_WORLD.reduce(one, result, 1, MPI.DOUBLE, MPI.SUM, 0);
                MPI.COMM_WORLD.allGather(ints, 1, MPI.INT, gathered, 1, MPI.INT);
                MPI.COMM_WORLD.allToAll(ints, 1, MPI.INT, gathered, 1, MPI.INT);
                MPI.COMM_WORLD.gather(ints, 1, MPI.INT, gathered, 1, MPI.INT, 0);
                MPI.COMM_WORLD.scatter(gathered, 1, MPI.INT, ints, 1, MPI.INT, 0);
                if (peer < size) {
                    nonBlocking(rank, peer, small);
                }
            }
            if (i % 500 == 0) {
                if (peer < size) {
                    exchange(rank, peer, large, LARGE);
                }
                MPI.COMM_WORLD.bcast(large, LARGE, MPI.BYTE, 0);
            }
        }
        MPI.Finalize();
    }

    /** A ping-pong: the lower rank sends first. */
    private static void exchange(int rank, int peer, byte[] buffer, int count) throws MPIException {
        if (rank < peer) {
            MPI.COMM_WORLD.send(buffer, count, MPI.BYTE, peer, 1);
            MPI.COMM_WORLD.recv(buffer, count, MPI.BYTE, peer, 1);
        } else {
            MPI.COMM_WORLD.recv(buffer, count, MPI.BYTE, peer, 1);
            MPI.COMM_WORLD.send(buffer, count, MPI.BYTE, peer, 1);
        }
    }

    private static void nonBlocking(int rank, int peer, byte[] buffer) throws MPIException {
        byte[] incoming = new byte[buffer.length];
        Request receive = MPI.COMM_WORLD.iRecv(MPI.newByteBuffer(8), 8, MPI.BYTE, peer, 2);
        Request send = MPI.COMM_WORLD.iSend(MPI.newByteBuffer(8), 8, MPI.BYTE, peer, 2);
        Request.waitAll(new Request[] {receive, send});
        MPI.COMM_WORLD.sendRecv(buffer, 8, MPI.BYTE, peer, 3, incoming, 8, MPI.BYTE, peer, 3);
    }
}
