package org.jmca.mpi;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import java.util.concurrent.locks.LockSupport;
import org.jmca.runtime.JitActivity;

/**
 * MPI.Init's warm-up ({@code mpi_warmup_ms}): the calls applications make first and most run on
 * MPI_COMM_WORLD in batches of doubling length, and after each batch every rank sleeps while its
 * JVM's JIT compilers work, so that they have the rank's CPU to themselves. It ends at the first
 * long batch that gave no rank's compilers anything to do - the JIT's work for these calls is
 * done - or when its budget is spent.
 *
 * <p>Why it waits for the compilers rather than for a time: on a full node every CPU is some
 * rank's, and a compiler thread that shares one with a spinning rank gets half of it at best, in
 * slices of milliseconds that stall the rank's peers too. Without a warm-up, the application's own
 * first thousands of calls pay that (measured on 2 bound ranks of 2 cores: 15-190 us per
 * allreduce instead of about 1). Batches double because the JIT promotes a method after a number
 * of calls (with the AOT cache's profiles, about 2200 for C2): a quiet short batch says little, a
 * quiet batch of {@link #LONG_BATCH} rounds says that the common paths are compiled.
 *
 * <p>Every rank makes the same calls and the ranks agree on going on by an allreduce - a
 * non-blocking one, waited for asleep, so that a rank done early does not spin beside a peer's
 * compiler - so MPI_COMM_WORLD's state (its collective call count, the message sequence numbers)
 * is the same on all ranks afterwards and no message is left behind for the application.
 */
public final class InitWarmup {
    /** Rounds of the first batch; each batch after it is twice as long, up to {@link #LONG_BATCH}. */
    private static final int FIRST_BATCH = 64;
    /** Rounds of a batch long enough that a method called once a round reaches C2's threshold in it. */
    private static final int LONG_BATCH = 2048;
    /** Where /proc shows no compiler threads: rounds after which the warm-up ends. */
    private static final long BLIND_ROUNDS = 8000;
    /**
     * Compiler CPU time below which a batch counts as quiet, ns: the compilers' own housekeeping,
     * and compiles of this warm-up's bookkeeping, cost a few milliseconds now and then.
     */
    private static final long QUIET_COMPILER_NANOS = 4_000_000;
    /**
     * Sizes of the ping-pong with a neighbour, in turn. The copy of a small payload branches on
     * its size: with 8 bytes alone, an application's first 1-byte and then 2-byte messages took
     * branches the JIT had compiled out, and the compiled send and receive paths were thrown away
     * and compiled again during them (JFR: osu_latency's 1 and 2 B over tcp ran at 2x the
     * latency of 8 B).
     */
    private static final int[] PING_PONG_SIZES = {1, 2, 4, 8, 16, 64, 1024, 8192};

    /** Why a warm-up ended. */
    enum End {
        /** A long batch left every rank's compilers idle. */
        QUIET,
        /** The budget ({@code mpi_warmup_ms}) was spent on some rank. */
        BUDGET,
        /** No /proc to watch the compilers in: a fixed number of rounds ran. */
        ROUNDS
    }

    /** What a warm-up did, for {@code mpi_warmup_verbose}. */
    public record Outcome(End end, int batches, long rounds, long nanos, long compilerNanos) {
        public String describe() {
            return String.format("MPI.Init's warm-up took %d ms: %d batches, %d rounds of calls; this JVM's JIT"
                    + " compilers worked %d ms meanwhile; %s", nanos / 1_000_000, batches, rounds,
                    compilerNanos / 1_000_000, switch (end) {
                        case QUIET -> "it ended when no rank's compilers had anything left to do";
                        case BUDGET -> "it ended at its budget (mpi_warmup_ms) with the JIT still at work";
                        case ROUNDS -> "it ended after a fixed number of rounds (no /proc to watch the JIT in)";
                    });
        }
    }

    private InitWarmup() {
    }

    /** Runs the warm-up on {@code comm}, whose collective selection's messages the caller has muted. */
    public static Outcome run(Intracomm comm, int rank, int size, long budgetMillis) throws MPIException {
        long start = System.nanoTime();
        long deadline = start + budgetMillis * 1_000_000;
        JitActivity jit = JitActivity.open();
        long compilerStart = jit == null ? 0 : jit.cpuNanos();
        Calls calls = new Calls(comm, rank, size);
        IntBuffer state = MPI.newIntBuffer(2);
        int batch = FIRST_BATCH;
        int batches = 0;
        long rounds = 0;
        End end;
        while (true) {
            long compilerBefore = jit == null ? 0 : jit.cpuNanos();
            long batchStart = System.nanoTime();
            calls.run(batch);
            long roundNanos = Math.max(1, (System.nanoTime() - batchStart) / batch);
            rounds += batch;
            batches++;
            boolean compiled;
            if (jit != null) {
                jit.awaitIdle(deadline);
                compiled = jit.cpuNanos() - compilerBefore > QUIET_COMPILER_NANOS;
            } else {
                compiled = rounds < BLIND_ROUNDS;
            }
            // 2: some rank's time is up; 1: some rank's compilers worked; 0: all quiet
            long left = deadline - System.nanoTime();
            state.put(0, left <= 0 ? 2 : compiled ? 1 : 0);
            // rounds of the last batch's pace that still fit the budget, negated: the largest of
            // them over the ranks is the fewest, so that the next batch ends in time everywhere
            state.put(1, (int) -Math.min(LONG_BATCH, Math.max(1, left / roundNanos)));
            agree(comm, state);
            if (state.get(0) == 2) {
                end = End.BUDGET;
                break;
            }
            if (state.get(0) == 0 && batch == LONG_BATCH) {
                end = jit != null ? End.QUIET : End.ROUNDS;
                break;
            }
            batch = Math.min(Math.min(batch * 2, LONG_BATCH), -state.get(1));
        }
        long compilerNanos = jit == null ? 0 : jit.cpuNanos() - compilerStart;
        return new Outcome(end, batches, rounds, System.nanoTime() - start, compilerNanos);
    }

    /** The largest {@code state} over the ranks, waited for asleep (see the class comment). */
    private static void agree(Intracomm comm, IntBuffer state) throws MPIException {
        Request request = comm.iAllReduce(state, state.capacity(), MPI.INT, MPI.MAX);
        while (!request.test()) {
            LockSupport.parkNanos(50_000);
        }
    }

    /** One round is a call of each kind; the buffers are made once. */
    private static final class Calls {
        private final Intracomm comm;
        private final int peer;
        private final boolean first;
        private final byte[] bytes = new byte[PING_PONG_SIZES[PING_PONG_SIZES.length - 1]];
        private final double[] doubles;
        private final double[] doubleSum = new double[1];
        private final float[] floats;
        private final float[] floatSum = new float[1];
        private final int[] ints;
        private final int[] intMax = new int[1];
        private final long[] longs;
        private final long[] longSum = new long[1];
        private int round;

        Calls(Intracomm comm, int rank, int size) {
            this.comm = comm;
            int neighbour = rank ^ 1;
            this.peer = neighbour < size ? neighbour : -1;
            this.first = rank < neighbour;
            this.doubles = new double[] {rank};
            this.floats = new float[] {rank};
            this.ints = new int[] {rank};
            this.longs = new long[] {rank};
        }

        void run(int rounds) throws MPIException {
            for (int i = 0; i < rounds; i++) {
                if (peer >= 0) {
                    pingPong(PING_PONG_SIZES[round++ % PING_PONG_SIZES.length]);
                }
                comm.allReduce(doubles, doubleSum, 1, MPI.DOUBLE, MPI.SUM);
                comm.allReduce(floats, floatSum, 1, MPI.FLOAT, MPI.SUM);
                comm.allReduce(ints, intMax, 1, MPI.INT, MPI.MAX);
                comm.allReduce(longs, longSum, 1, MPI.LONG, MPI.SUM);
                comm.bcast(bytes, 8, MPI.BYTE, 0);
                comm.barrier();
            }
        }

        private void pingPong(int count) throws MPIException {
            if (first) {
                comm.send(bytes, count, MPI.BYTE, peer, 0);
                comm.recv(bytes, count, MPI.BYTE, peer, 0);
            } else {
                comm.recv(bytes, count, MPI.BYTE, peer, 0);
                comm.send(bytes, count, MPI.BYTE, peer, 0);
            }
        }
    }
}
