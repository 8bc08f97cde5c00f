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
 * A 2-D halo exchange with computation between post and wait: Jacobi sweeps of a field of
 * {@code k} values per point on a grid of {@code px x py} ranks, each holding {@code n x n} points.
 *
 * <p>Each sweep posts the receives of the four halos (one per neighbour that exists: the grid is
 * not periodic), sends its four edges ({@code n * k} doubles each, a rendezvous from a few
 * kilobytes on), computes every point that needs no halo, waits, then computes the edge points.
 * The halos travel while the interior is computed only if something moves them then: the
 * asynchronous rendezvous's helper, or nothing (mode off: they move in the wait).
 *
 * <p>Prints the timed sweeps' wall time (the slowest rank's), the time per sweep, a checksum of
 * the field (the same in every mode and for every placement) and each rank's non-zero counters.
 */
@Command(name = "bench.Halo2d", mixinStandardHelpOptions = true,
        description = "2-D halo exchange, interior computed between post and wait.")
public final class Halo2d implements Callable<Integer> {
    @Option(names = "-n", description = "Points per side of each rank's block. Default: ${DEFAULT-VALUE}.")
    int n = 16;

    @Option(names = "-k", description = "Values per point (a halo is n*k doubles). Default: ${DEFAULT-VALUE}.")
    int k = 4096;

    @Option(names = "-i", description = "Timed sweeps. Default: ${DEFAULT-VALUE}.")
    int sweeps = 300;

    @Option(names = "-w", description = "Untimed sweeps first (JIT). Default: ${DEFAULT-VALUE}.")
    int warmup = 30;

    private static final int NORTH = 0;
    private static final int SOUTH = 1;
    private static final int WEST = 2;
    private static final int EAST = 3;

    /** This rank's block with a halo of one point around it: (n + 2)^2 points of k values. */
    private double[] field;
    private double[] next;
    private final int[] neighbour = new int[4];
    private final ByteBuffer[] outgoing = new ByteBuffer[4];
    private final ByteBuffer[] incoming = new ByteBuffer[4];

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int status = new CommandLine(new Halo2d()).execute(args);
        MPI.Finalize();
        System.exit(status);
    }

    @Override
    public Integer call() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int size = world.getSize();
        int rank = world.getRank();
        int px = 1;
        for (int d = 1; d * d <= size; d++) {
            if (size % d == 0) {
                px = d;
            }
        }
        int py = size / px;
        int row = rank / py;
        int col = rank % py;
        neighbour[NORTH] = row > 0 ? rank - py : -1;
        neighbour[SOUTH] = row < px - 1 ? rank + py : -1;
        neighbour[WEST] = col > 0 ? rank - 1 : -1;
        neighbour[EAST] = col < py - 1 ? rank + 1 : -1;
        int side = n + 2;
        field = new double[side * side * k];
        next = new double[side * side * k];
        for (int i = 0; i < side; i++) { // a fixed hot western and northern border of the whole domain
            for (int j = 0; j < side; j++) {
                double value = (row == 0 && i == 0) || (col == 0 && j == 0) ? 1.0 : 0.0;
                for (int c = 0; c < k; c++) {
                    field[at(i, j) + c] = value * (1 + c % 7);
                }
            }
        }
        System.arraycopy(field, 0, next, 0, field.length);
        for (int d = 0; d < 4; d++) {
            outgoing[d] = MPI.newByteBuffer(8 * n * k);
            incoming[d] = MPI.newByteBuffer(8 * n * k);
        }
        for (int s = 0; s < warmup; s++) {
            sweep(world);
        }
        world.barrier();
        double start = MPI.wtime();
        for (int s = 0; s < sweeps; s++) {
            sweep(world);
        }
        double[] elapsed = {MPI.wtime() - start};
        double[] slowest = new double[1];
        world.reduce(elapsed, slowest, 1, MPI.DOUBLE, MPI.MAX, 0);
        double[] sum = {checksum()};
        double[] total = new double[1];
        world.reduce(sum, total, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("# bench.Halo2d: %d x %d ranks, %d x %d points of %d values each, halo %d KiB%n", px, py,
                    n, n, k, 8 * n * k / 1024);
            System.out.printf("wall time %.4f s for %d sweeps (%.1f us per sweep), checksum %.10e%n", slowest[0],
                    sweeps, slowest[0] / sweeps * 1e6, total[0]);
        }
        Report.printCounters(world);
        return 0;
    }

    private int at(int i, int j) {
        return (i * (n + 2) + j) * k;
    }

    private void sweep(Intracomm world) throws MPIException {
        Request[] requests = new Request[8];
        int count = 0;
        for (int d = 0; d < 4; d++) {
            if (neighbour[d] >= 0) { // what neighbour d sends towards us travels in the opposite direction
                requests[count++] = world.iRecv(incoming[d], n * k, MPI.DOUBLE, neighbour[d], d ^ 1);
            }
        }
        for (int d = 0; d < 4; d++) {
            if (neighbour[d] >= 0) {
                pack(d);
                requests[count++] = world.iSend(outgoing[d], n * k, MPI.DOUBLE, neighbour[d], d);
            }
        }
        compute(2, n - 1, 2, n - 1); // the interior needs no halo
        Request.waitAll(java.util.Arrays.copyOf(requests, count));
        for (int d = 0; d < 4; d++) {
            if (neighbour[d] >= 0) {
                unpack(d);
            }
        }
        compute(1, 1, 1, n); // the edge rows and columns
        compute(n, n, 1, n);
        compute(2, n - 1, 1, 1);
        compute(2, n - 1, n, n);
        double[] swap = field;
        field = next;
        next = swap;
    }

    /** Jacobi on rows i0..i1 and columns j0..j1 (inclusive), from field into next. */
    private void compute(int i0, int i1, int j0, int j1) {
        for (int i = i0; i <= i1; i++) {
            for (int j = j0; j <= j1; j++) {
                int p = at(i, j);
                int north = at(i - 1, j);
                int south = at(i + 1, j);
                int west = at(i, j - 1);
                int east = at(i, j + 1);
                for (int c = 0; c < k; c++) {
                    next[p + c] = 0.25 * (field[north + c] + field[south + c] + field[west + c] + field[east + c]);
                }
            }
        }
    }

    /** The first or last row or column of the block, towards neighbour {@code d}. */
    private void pack(int d) {
        DoubleBuffer out = outgoing[d].clear().asDoubleBuffer();
        for (int m = 1; m <= n; m++) {
            out.put(field, edge(d, m, false), k);
        }
    }

    private void unpack(int d) {
        DoubleBuffer in = incoming[d].clear().asDoubleBuffer();
        for (int m = 1; m <= n; m++) {
            in.get(field, edge(d, m, true), k);
        }
    }

    /** The m-th point (1..n) of the edge towards {@code d}: the block's own, or the halo beyond it. */
    private int edge(int d, int m, boolean halo) {
        int beyond = halo ? 1 : 0;
        return switch (d) {
            case NORTH -> at(1 - beyond, m);
            case SOUTH -> at(n + beyond, m);
            case WEST -> at(m, 1 - beyond);
            default -> at(m, n + beyond);
        };
    }

    private double checksum() {
        double sum = 0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int c = 0; c < k; c++) {
                    sum += field[at(i, j) + c];
                }
            }
        }
        return sum;
    }
}
