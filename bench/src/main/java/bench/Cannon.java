package bench;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.concurrent.Callable;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A kernel that computes and communicates: Cannon's matrix multiplication on a q x q grid of
 * ranks (4 ranks: 2 x 2), with non-blocking shifts overlapping the block products.
 *
 * <p>Each rank holds one b x b block of A, B and C (b = n / q), aligned as Cannon's algorithm
 * starts. A step multiplies the current blocks into C while they travel on: A one rank left, B
 * one rank up. The receives for a step are posted one step ahead, into a third buffer, so every
 * shift meets a posted receive — which is what lets a helper thread move it while the rank
 * computes. {@code -r} multiplications run back to back (q steps each, the blocks come back
 * aligned), after {@code -w} untimed ones. C is checked exactly against a direct product.
 *
 * <p>Prints the wall time of the timed multiplications (the slowest rank's) and each rank's
 * non-zero counters (asynchronous progress, RGET).
 */
@Command(name = "bench.Cannon", mixinStandardHelpOptions = true,
        description = "Cannon's matrix multiplication with non-blocking shifts.")
public final class Cannon implements Callable<Integer> {
    @Option(names = "-n", description = "Matrix order (a multiple of the grid side). Default: ${DEFAULT-VALUE}.")
    int n = 512;

    @Option(names = "-r", description = "Timed multiplications. Default: ${DEFAULT-VALUE}.")
    int multiplications = 20;

    @Option(names = "-w", description = "Untimed multiplications first (JIT). Default: ${DEFAULT-VALUE}.")
    int warmup = 5;

    private static final int TAG_A = 11;
    private static final int TAG_B = 12;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int status = new CommandLine(new Cannon()).execute(args);
        MPI.Finalize();
        System.exit(status);
    }

    @Override
    public Integer call() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int size = world.getSize();
        int q = (int) Math.round(Math.sqrt(size));
        if (q * q != size || n % q != 0) {
            if (world.getRank() == 0) {
                System.err.println("Cannon needs a square number of ranks and n a multiple of its side; got "
                        + size + " ranks and n=" + n);
            }
            return 2;
        }
        int b = n / q;
        int rank = world.getRank();
        int row = rank / q;
        int col = rank % q;
        int left = row * q + (col + q - 1) % q;
        int right = row * q + (col + 1) % q;
        int up = ((row + q - 1) % q) * q + col;
        int down = ((row + 1) % q) * q + col;

        // Three buffers per matrix: the one computed with (and sent), the one being received for
        // the next step, and the one posted for the step after.
        ByteBuffer[] aBuffers = new ByteBuffer[3];
        ByteBuffer[] bBuffers = new ByteBuffer[3];
        for (int i = 0; i < 3; i++) {
            aBuffers[i] = MPI.newByteBuffer(8 * b * b);
            bBuffers[i] = MPI.newByteBuffer(8 * b * b);
        }
        int k0 = (row + col) % q;
        fill(aBuffers[0].asDoubleBuffer(), b, row * b, k0 * b, true);
        fill(bBuffers[0].asDoubleBuffer(), b, k0 * b, col * b, false);
        double[] a = new double[b * b];
        double[] bb = new double[b * b];
        double[] c = new double[b * b];
        int bytes = 8 * b * b;

        int current = 0;
        Request[] posted = postReceives(world, aBuffers[1], bBuffers[1], bytes, right, down);
        double start = 0;
        for (int m = 0; m < warmup + multiplications; m++) {
            if (m == warmup) {
                world.barrier();
                start = MPI.wtime();
            }
            for (int step = 0; step < q; step++) {
                int next = (current + 1) % 3;
                int after = (current + 2) % 3;
                Request[] receiving = posted;
                posted = postReceives(world, aBuffers[after], bBuffers[after], bytes, right, down);
                Request sendA = world.iSend(aBuffers[current], bytes, MPI.BYTE, left, TAG_A);
                Request sendB = world.iSend(bBuffers[current], bytes, MPI.BYTE, up, TAG_B);
                aBuffers[current].asDoubleBuffer().get(a);
                bBuffers[current].asDoubleBuffer().get(bb);
                multiplyAdd(a, bb, c, b);
                Request.waitAll(new Request[] {sendA, sendB, receiving[0], receiving[1]});
                current = next;
            }
        }
        double seconds = MPI.wtime() - start;
        for (Request r : posted) {
            r.cancel();
            r.waitFor();
        }
        double[] slowest = new double[1];
        world.reduce(new double[] {seconds}, slowest, 1, MPI.DOUBLE, MPI.MAX, 0);
        long wrong = check(c, b, n, row * b, col * b, warmup + multiplications);
        long[] wrongAll = new long[1];
        world.reduce(new long[] {wrong}, wrongAll, 1, MPI.LONG, MPI.SUM, 0);
        if (rank == 0) {
            double flops = 2.0 * n * n * n * multiplications;
            System.out.printf("# Cannon n=%d on %dx%d ranks, %d multiplications after %d untimed%n",
                    n, q, q, multiplications, warmup);
            System.out.printf("wall %.4f s  %.2f GFLOP/s  wrong elements %d%n", slowest[0], flops / slowest[0] / 1e9,
                    wrongAll[0]);
        }
        Report.printCounters(world);
        return wrongAll[0] == 0 || rank != 0 ? 0 : 1;
    }

    private static Request[] postReceives(Intracomm world, ByteBuffer a, ByteBuffer b, int bytes, int right, int down)
            throws MPIException {
        return new Request[] {
            world.iRecv(a, bytes, MPI.BYTE, right, TAG_A),
            world.iRecv(b, bytes, MPI.BYTE, down, TAG_B),
        };
    }

    /** Small integers, so that every product and sum is exact in doubles. */
    private static double element(int i, int j, boolean isA) {
        return isA ? (i + 2 * j) % 7 - 3 : (3 * i + j) % 5 - 2;
    }

    private static void fill(DoubleBuffer block, int b, int firstRow, int firstCol, boolean isA) {
        for (int i = 0; i < b; i++) {
            for (int j = 0; j < b; j++) {
                block.put(i * b + j, element(firstRow + i, firstCol + j, isA));
            }
        }
    }

    /** c += a · b for b x b row-major blocks; the inner loop runs along rows, which the JIT vectorizes. */
    private static void multiplyAdd(double[] a, double[] b, double[] c, int order) {
        for (int i = 0; i < order; i++) {
            int ci = i * order;
            for (int k = 0; k < order; k++) {
                double aik = a[ci + k];
                int bk = k * order;
                for (int j = 0; j < order; j++) {
                    c[ci + j] += aik * b[bk + j];
                }
            }
        }
    }

    /** Elements of this rank's C block that differ from {@code times} x (A · B), computed directly. */
    private static long check(double[] c, int b, int n, int firstRow, int firstCol, int times) {
        long wrong = 0;
        for (int i = 0; i < b; i++) {
            for (int j = 0; j < b; j++) {
                double sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += element(firstRow + i, k, true) * element(k, firstCol + j, false);
                }
                if (c[i * b + j] != times * sum) {
                    wrong++;
                }
            }
        }
        return wrong;
    }
}
