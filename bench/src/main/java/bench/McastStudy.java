package bench;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The multicast paper's experiments that osu_bcast does not cover, root rank 0, direct buffers.
 *
 * <ul>
 *   <li>{@code throughput BYTES COUNT [rotate]}: COUNT back-to-back broadcasts after a barrier, timed
 *       at every rank to its last one; prints broadcasts per second over the slowest rank (the
 *       paper's throughput test: the root does not wait for the receivers); {@code rotate} moves
 *       the root round the ranks, one broadcast each.
 *   <li>{@code late-leader BYTES COUNT DELAY_US}: before each broadcast every host's first rank
 *       (the leader coll/mcast picks) waits DELAY_US; prints the mean time the other ranks of those
 *       hosts spend in the broadcast, each iteration started by a barrier (the paper's dynamic
 *       attach test: with attach they take the multicast themselves instead of waiting).
 * </ul>
 * Each runs OSU's default warm-up first (10 % of COUNT untimed, at least 10).
 */
public final class McastStudy {
    private McastStudy() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        String mode = args.length > 0 ? args[0] : "";
        int bytes = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, bytes));
        switch (mode) {
            case "throughput" -> throughput(world, buffer, bytes, count, args.length > 3 && args[3].equals("rotate"));
            case "late-leader" -> lateLeader(world, buffer, bytes, count, Long.parseLong(args[3]) * 1000);
            default -> throw new IllegalArgumentException("McastStudy: mode '" + mode
                    + "' is neither throughput nor late-leader");
        }
        StringBuilder counters = new StringBuilder();
        for (var variable : MPI.performanceVariables()) {
            if (variable.name().startsWith("coll_mcast_") && variable.value() != 0) {
                counters.append(' ').append(variable.name().substring(11)).append('=').append(variable.value());
            }
        }
        if (!counters.isEmpty() && world.getRank() <= 1) {
            System.out.println("rank " + world.getRank() + " coll/mcast:" + counters);
        }
        MPI.Finalize();
    }

    private static void throughput(Intracomm world, ByteBuffer buffer, int bytes, int count, boolean rotate)
            throws MPIException {
        int size = world.getSize();
        for (int i = 0; i < Math.max(10, count / 10); i++) {
            world.bcast(buffer, bytes, MPI.BYTE, rotate ? i % size : 0);
        }
        world.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            world.bcast(buffer, bytes, MPI.BYTE, rotate ? i % size : 0);
        }
        double[] seconds = {(System.nanoTime() - start) / 1e9};
        world.allReduce(seconds, 1, MPI.DOUBLE, MPI.MAX);
        if (world.getRank() == 0) {
            System.out.printf("throughput %d B: %.0f broadcasts/s (%d in %.4f s)%n", bytes, count / seconds[0], count,
                    seconds[0]);
        }
    }

    private static void lateLeader(Intracomm world, ByteBuffer buffer, int bytes, int count, long delayNanos)
            throws MPIException {
        int rank = world.getRank();
        String host = MPI.getProcessorName();
        Intracomm local = world.split(host.hashCode() & 0x7fffffff, rank);
        int[] rootHost = {rank == 0 ? 1 : 0};
        local.allReduce(rootHost, 1, MPI.INT, MPI.MAX);
        boolean leader = local.getRank() == 0;
        boolean measured = rootHost[0] == 0 && !leader;
        double total = 0;
        int warmup = Math.max(10, count / 10);
        for (int i = 0; i < warmup + count; i++) {
            world.barrier();
            if (leader && rootHost[0] == 0) {
                long until = System.nanoTime() + delayNanos;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            long start = System.nanoTime();
            world.bcast(buffer, bytes, MPI.BYTE, 0);
            if (i >= warmup) {
                total += (System.nanoTime() - start) / 1e3;
            }
        }
        double[] sums = {measured ? total / count : 0, measured ? 1 : 0};
        world.allReduce(sums, 2, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            System.out.printf("late-leader %d B, leader %d us late: %.1f us in bcast at the other ranks of its host"
                    + " (mean of %d ranks)%n", bytes, delayNanos / 1000, sums[0] / sums[1], (int) sums[1]);
        }
        local.free();
    }
}
