/* OSU-style bidirectional bandwidth: ranks 0 and 1 each post WINDOW non-blocking receives, then
 * WINDOW non-blocking sends to each other, and wait for all; MB/s (10^6 bytes per second) of both
 * directions together. Same table as bench.OsuBibw.
 * Usage: osu_bibw [MAXSIZE [ITERATIONS [WARMUP [WINDOW]]]]
 *   (defaults 4194304 100 10 64; sizes 1, 2, 4, ... MAXSIZE) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long max = argc > 1 ? atol(argv[1]) : (1 << 22);
    int iterations = argc > 2 ? atoi(argv[2]) : 100;
    int warmup = argc > 3 ? atoi(argv[3]) : 10;
    int window = argc > 4 ? atoi(argv[4]) : 64;
    size_t bytes = max > 0 ? (size_t) max : 1;
    char *sbuf = malloc(bytes);
    char *rbuf = malloc(bytes);
    memset(sbuf, 1, bytes);
    memset(rbuf, 0, bytes);
    MPI_Request *requests = malloc(sizeof(MPI_Request) * 2 * window);
    int peer = 1 - rank;
    if (rank == 0) printf("# OSU MPI Bi-Directional Bandwidth Test (C, Open MPI)\n%-10s%18s\n", "# Size", "Bandwidth (MB/s)");
    for (long size = 1; size <= max; size *= 2) {
        double start = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank < 2) {
            for (int i = 0; i < iterations + warmup; i++) {
                if (i == warmup) start = MPI_Wtime();
                for (int w = 0; w < window; w++)
                    MPI_Irecv(rbuf, size, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &requests[w]);
                for (int w = 0; w < window; w++)
                    MPI_Isend(sbuf, size, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &requests[window + w]);
                MPI_Waitall(2 * window, requests, MPI_STATUSES_IGNORE);
            }
        }
        if (rank == 0) {
            double seconds = MPI_Wtime() - start;
            printf("%-10ld%18.2f\n", size, size / 1e6 * iterations * window * 2 / seconds);
        }
        fflush(stdout);
    }
    free(requests);
    free(rbuf);
    free(sbuf);
    MPI_Finalize();
    return 0;
}
