package mpi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * MPI.Init's warm-up ({@code mpi_warmup_ms}): the calls applications make most run on
 * MPI_COMM_WORLD, round after round, until no rank's JIT compiler thread is busy at the end of two
 * rounds in a row, or the time is up. Measured on 2 bound ranks of 2 cores: without it the
 * application loop's first 10,000 allreduces took 15-190 us each, while the JIT compiled on the
 * ranks' own cores in slices of milliseconds; after it, about 1 us. A compile still queued when a
 * warm-up stops early (a test of finished compiles only) spoilt the first calls just the same, so
 * the compiler threads themselves are watched, in {@code /proc}.
 *
 * <p>Every rank makes the same calls and agrees on stopping by an allreduce, so MPI_COMM_WORLD's
 * state (its collective call count, the message sequence numbers) stays the same on all ranks and
 * no message is left behind for the application.
 */
final class InitWarmup {
    /** Calls of each kind between two looks at the compiler. */
    private static final int ROUNDS = 100;
    /**
     * Sizes of the ping-pong with a neighbour, in turn. The copy of a small payload branches on
     * its size: with 8 bytes alone, an application's first 1-byte and then 2-byte messages took
     * branches the JIT had compiled out, and the compiled send and receive paths were thrown away
     * and compiled again during them (JFR: osu_latency's 1 and 2 B over tcp ran at 2x the
     * latency of 8 B).
     */
    private static final int[] PING_PONG_SIZES = {1, 2, 4, 8, 16, 64, 1024, 8192};

    private InitWarmup() {
    }

    static void run(Intracomm comm, int rank, int size, long budgetMillis) throws MPIException {
        comm.collPort.mute(true);
        try {
            warmUp(comm, rank, size, budgetMillis);
        } finally {
            comm.collPort.mute(false);
        }
    }

    private static void warmUp(Intracomm comm, int rank, int size, long budgetMillis) throws MPIException {
        long deadline = System.nanoTime() + budgetMillis * 1_000_000;
        int peer = rank ^ 1;
        byte[] bytes = new byte[PING_PONG_SIZES[PING_PONG_SIZES.length - 1]];
        double[] doubles = {rank};
        double[] doubleSum = new double[1];
        int[] ints = new int[1];
        int[] intMax = new int[1];
        long[] longs = {rank};
        long[] longSum = new long[1];
        float[] floats = {rank};
        float[] floatSum = new float[1];
        int[] state = new int[1];
        int quiet = 0;
        while (quiet < 2) {
            for (int i = 0; i < ROUNDS; i++) {
                if (peer < size) {
                    pingPong(comm, rank < peer, peer, bytes, PING_PONG_SIZES[i % PING_PONG_SIZES.length]);
                }
                comm.allReduce(doubles, doubleSum, 1, MPI.DOUBLE, MPI.SUM);
                // the int allreduce also says whether some rank's time is up: a round of an
                // oversubscribed host can take milliseconds, so waiting for the end of the
                // batch would overshoot the budget by seconds
                ints[0] = System.nanoTime() - deadline >= 0 ? 1 : 0;
                comm.allReduce(ints, intMax, 1, MPI.INT, MPI.MAX);
                if (intMax[0] == 1) {
                    return;
                }
                comm.allReduce(longs, longSum, 1, MPI.LONG, MPI.SUM);
                comm.allReduce(floats, floatSum, 1, MPI.FLOAT, MPI.SUM);
                comm.bcast(bytes, 8, MPI.BYTE, 0);
                comm.barrier();
            }
            // 2: some rank's time is up; 1: some rank's compiler is busy; 0: all quiet.
            state[0] = System.nanoTime() - deadline >= 0 ? 2 : compilerBusy() ? 1 : 0;
            comm.allReduce(state, 1, MPI.INT, MPI.MAX);
            if (state[0] == 2) {
                return;
            }
            quiet = state[0] == 0 ? quiet + 1 : 0;
        }
    }

    private static void pingPong(Intracomm comm, boolean first, int peer, byte[] bytes, int count)
            throws MPIException {
        if (first) {
            comm.send(bytes, count, MPI.BYTE, peer, 0);
            comm.recv(bytes, count, MPI.BYTE, peer, 0);
        } else {
            comm.recv(bytes, count, MPI.BYTE, peer, 0);
            comm.send(bytes, count, MPI.BYTE, peer, 0);
        }
    }

    /** Whether one of this JVM's JIT compiler threads is running or waiting to run (false without /proc). */
    static boolean compilerBusy() {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII);
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                    if (stat.charAt(stat.lastIndexOf(')') + 2) == 'R') {
                        return true;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // A thread that ended while we looked, or no /proc: nothing to wait for.
        }
        return false;
    }
}
