package examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Pi as the integral of 4/(1+x^2) over [0,1] by the midpoint rule: each rank sums every size-th
 * interval, and rank 0 collects the partial sums with point-to-point messages.
 */
public final class Pi {
    private static final int TAG = 7;

    private Pi() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        double start = MPI.wtime();
        double width = 1.0 / intervals;
        double sum = 0;
        for (long i = rank; i < intervals; i += size) {
            double x = width * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] partial = {sum * width};
        if (rank == 0) {
            double pi = partial[0];
            for (int source = 1; source < size; source++) {
                MPI.COMM_WORLD.recv(partial, 1, MPI.DOUBLE, source, TAG);
                pi += partial[0];
            }
            System.out.printf("pi is approximately %.16f, error %.2e, %d intervals on %d ranks in %.3f s%n",
                    pi, Math.abs(pi - Math.PI), intervals, size, MPI.wtime() - start);
        } else {
            MPI.COMM_WORLD.send(partial, 1, MPI.DOUBLE, 0, TAG);
        }
        MPI.Finalize();
    }
}
