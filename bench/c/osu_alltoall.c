/* OSU-style all-to-all latency: MPI_Alltoall of SIZE MPI_CHARs to and from every rank, a barrier
 * before each call, each call timed alone; each rank's average, then the average over ranks
 * (FULL: also the minimum, maximum and iterations). Same table as bench.OsuAlltoall.
 * Usage: osu_alltoall [MAXSIZE [ITERATIONS [WARMUP [FULL]]]]
 *   (defaults 1048576, 1000 iterations after 200 warm-up (100 after 10 above 8192 bytes; given
 *   counts apply to every size), FULL 0; sizes 1, 2, 4, ... MAXSIZE) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE_MESSAGE_SIZE 8192

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    long max = argc > 1 ? atol(argv[1]) : (1 << 20);
    int iterations = argc > 2 ? atoi(argv[2]) : 1000, iterations_large = argc > 2 ? iterations : 100;
    int warmup = argc > 3 ? atoi(argv[3]) : 200, warmup_large = argc > 3 ? warmup : 10;
    int full = argc > 4 ? atoi(argv[4]) : 0;
    if (nranks < 2) {
        if (rank == 0) fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        return 1;
    }
    size_t bytes = (size_t) (max > 0 ? max : 1) * (size_t) nranks;
    char *sendbuf = malloc(bytes);
    char *recvbuf = malloc(bytes);
    memset(sendbuf, 1, bytes);
    memset(recvbuf, 0, bytes);
    if (rank == 0) {
        printf("# OSU MPI All-to-All Personalized Exchange Latency Test (C, Open MPI)\n%-10s%18s", "# Size",
               "Avg Latency(us)");
        if (full) printf("%18s%18s%12s", "Min Latency(us)", "Max Latency(us)", "Iterations");
        printf("\n");
    }
    for (long size = 1; size <= max; size *= 2) {
        int iters = size > LARGE_MESSAGE_SIZE ? iterations_large : iterations;
        int skip = size > LARGE_MESSAGE_SIZE ? warmup_large : warmup;
        double timer = 0;
        for (int i = 0; i < iters + skip; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double start = MPI_Wtime();
            MPI_Alltoall(sendbuf, size, MPI_CHAR, recvbuf, size, MPI_CHAR, MPI_COMM_WORLD);
            double stop = MPI_Wtime();
            if (i >= skip) timer += stop - start;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double latency = timer * 1e6 / iters, min, max_time, sum;
        MPI_Reduce(&latency, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&latency, &max_time, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&latency, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("%-10ld%18.2f", size, sum / nranks);
            if (full) printf("%18.2f%18.2f%12d", min, max_time, iters);
            printf("\n");
            fflush(stdout);
        }
    }
    free(recvbuf);
    free(sendbuf);
    MPI_Finalize();
    return 0;
}
