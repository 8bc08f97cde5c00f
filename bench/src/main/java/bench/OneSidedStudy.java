package bench;

import java.nio.ByteBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Win;

/**
 * The LAPI study's three measurements asked of MPI's one-sided interface instead of LAPI's, so
 * that JMCA's windows and Open MPI's ({@code bench/c/onesided_study.c}, the same program in C)
 * are measured alike: in a passive-target epoch ({@code lockAll}) rank 0 puts or gets and waits
 * with {@code flush} (the completion counter's wait); Q_Depth {@code rGet}s then a wait for all;
 * the overlap pseudo-code with {@code rGet} and a wait for the oldest. Rank 1 waits in a barrier.
 * Lines as {@link LapiStudy}'s ({@code latency OP F SIZE US MB/S}, {@code qdepth Q SIZE US MB/S},
 * {@code overlap Q SIZE N_FLOAT COMPUTE_US US}).
 */
public final class OneSidedStudy {
    private OneSidedStudy() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int window = LapiStudy.SIZES[LapiStudy.SIZES.length - 1] * 16;
        ByteBuffer base = MPI.newByteBuffer(window);
        Win win = new Win(base, window, 1, new Info(), MPI.COMM_WORLD);
        if (rank == 0) {
            ByteBuffer local = MPI.newByteBuffer(window);
            win.lockAll(0);
            Origin origin = new Origin(win, local);
            for (String test : args.length == 0 ? new String[] {"latency", "qdepth", "overlap"} : args) {
                switch (test) {
                    case "latency" -> origin.latency();
                    case "qdepth" -> origin.queueDepth();
                    case "overlap" -> origin.overlap(10_000);
                    default -> throw new IllegalArgumentException("unknown test " + test);
                }
            }
            win.unlockAll();
        }
        MPI.COMM_WORLD.barrier();
        win.free();
        MPI.Finalize();
    }

    private static final class Origin {
        private final Win win;
        private final ByteBuffer local;

        Origin(Win win, ByteBuffer local) {
            this.win = win;
            this.local = local;
        }

        private ByteBuffer at(long offset) {
            return MPI.slice(local, (int) offset);
        }

        private void op(boolean put, int size) throws MPIException {
            if (put) {
                win.put(local, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            } else {
                win.get(local, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            }
            win.flush(1);
        }

        void latency() throws MPIException {
            for (boolean put : new boolean[] {true, false}) {
                for (int size : LapiStudy.SIZES) {
                    int skip = size > 8192 ? 10 : 100;
                    int iterations = size > 8192 ? 1000 : 10_000;
                    for (int i = 0; i < skip; i++) {
                        op(put, size);
                    }
                    long start = System.nanoTime();
                    for (int i = 0; i < iterations; i++) {
                        op(put, size);
                    }
                    double us = (System.nanoTime() - start) / 1e3 / iterations;
                    System.out.printf("latency %s F %d %.2f %.1f%n", put ? "put" : "get", size, us, size / us);
                }
            }
        }

        void queueDepth() throws MPIException {
            Request[] requests = new Request[16];
            for (int size : new int[] {8, 14337}) {
                for (int q = 1; q <= 16; q++) {
                    int batches = size > 8192 ? 200 : 2000;
                    for (int i = 0; i < batches / 10; i++) {
                        batch(requests, q, size);
                    }
                    long start = System.nanoTime();
                    for (int i = 0; i < batches; i++) {
                        batch(requests, q, size);
                    }
                    double us = (System.nanoTime() - start) / 1e3 / ((double) batches * q);
                    System.out.printf("qdepth %d %d %.2f %.1f%n", q, size, us, size / us);
                }
            }
        }

        private void batch(Request[] requests, int q, int size) throws MPIException {
            for (int i = 0; i < q; i++) {
                requests[i] = win.rGet(at((long) i * size), size, MPI.BYTE, 1, i * size, size, MPI.BYTE);
            }
            for (int i = 0; i < q; i++) {
                requests[i].waitFor();
            }
        }

        void overlap(int numIter) throws MPIException {
            long[] nFloats = LapiStudy.N_FLOATS;
            double[] computeUs = new double[nFloats.length];
            for (int i = 0; i < nFloats.length; i++) {
                computeUs[i] = LapiStudy.cpuMicros(nFloats[i]);
            }
            for (int size : new int[] {8, 5211}) {
                for (int q : new int[] {1, 2, 4, 8}) {
                    point(numIter / 10, q, size, 0);
                    for (int i = 0; i < nFloats.length; i++) {
                        System.out.printf("overlap %d %d %d %.2f %.2f%n", q, size, nFloats[i], computeUs[i],
                                point(numIter, q, size, nFloats[i]));
                    }
                }
            }
        }

        /** The study's pseudo-code with rGet; a reap waits for the oldest get in flight. */
        private double point(int numIter, int qDepth, int size, long nFloat) throws MPIException {
            Request[] ring = new Request[16];
            int oldest = 0;
            int next = 0;
            int fillLevel = (qDepth + 1) / 2;
            long flops = 0;
            long start = System.nanoTime();
            for (int i = 0; i < qDepth; i++) {
                ring[next % 16] = win.rGet(at((long) (next % 16) * size), size, MPI.BYTE, 1, (next % 16) * size, size,
                        MPI.BYTE);
                next++;
            }
            int issued = qDepth;
            while (issued < numIter) {
                LapiStudy.cpuLoop(nFloat * fillLevel);
                flops += fillLevel;
                int toIssue = Math.min(numIter - issued, fillLevel);
                for (int i = 0; i < toIssue; i++) {
                    ring[oldest++ % 16].waitFor();
                    ring[next % 16] = win.rGet(at((long) (next % 16) * size), size, MPI.BYTE, 1, (next % 16) * size,
                            size, MPI.BYTE);
                    next++;
                }
                issued += toIssue;
            }
            LapiStudy.cpuLoop(nFloat * (numIter - flops));
            while (oldest < next) {
                ring[oldest++ % 16].waitFor();
            }
            return (System.nanoTime() - start) / 1e3 / numIter;
        }
    }
}
