/* OSU-style barrier latency: MPI_Barrier, a barrier before each call, each call timed alone;
 * each rank's average, then the average over ranks (FULL: also the minimum, maximum and
 * iterations). One row without a size column, as OSU prints it; same table as bench.OsuBarrier.
 * Usage: osu_barrier [MAXSIZE [ITERATIONS [WARMUP [FULL]]]]
 *   (MAXSIZE is ignored: it is there so that every program takes the same arguments; defaults
 *   1000 iterations after 200 warm-up, FULL 0) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int iterations = argc > 2 ? atoi(argv[2]) : 1000;
    int warmup = argc > 3 ? atoi(argv[3]) : 200;
    int full = argc > 4 ? atoi(argv[4]) : 0;
    if (nranks < 2) {
        if (rank == 0) fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        return 1;
    }
    double timer = 0;
    for (int i = 0; i < iterations + warmup; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        double stop = MPI_Wtime();
        if (i >= warmup) timer += stop - start;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double latency = timer * 1e6 / iterations, min, max_time, sum;
    MPI_Reduce(&latency, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency, &max_time, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# OSU MPI Barrier Latency Test (C, Open MPI)\n# Avg Latency(us)");
        if (full) printf("%18s%18s%12s", "Min Latency(us)", "Max Latency(us)", "Iterations");
        printf("\n%17.2f", sum / nranks);
        if (full) printf("%18.2f%18.2f%12d", min, max_time, iterations);
        printf("\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
