/* OSU-style bandwidth: rank 0 posts WINDOW non-blocking sends, rank 1 WINDOW receives, then a
 * 4-byte acknowledgement; MB/s (10^6 bytes per second).
 * Usage: osu_bw [MAXSIZE [ITERATIONS [WARMUP [WINDOW]]]] */
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
    char *buf = malloc(max);
    memset(buf, 1, max);
    MPI_Request *requests = malloc(sizeof(MPI_Request) * window);
    char ack[4];
    if (rank == 0) printf("# OSU MPI Bandwidth Test (C, Open MPI)\n# Size      Bandwidth (MB/s)\n");
    for (long size = 1; size <= max; size *= 2) {
        double start = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iterations + warmup; i++) {
            if (i == warmup) start = MPI_Wtime();
            if (rank == 0) {
                for (int w = 0; w < window; w++) MPI_Isend(buf, size, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &requests[w]);
                MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
                MPI_Recv(ack, 4, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int w = 0; w < window; w++) MPI_Irecv(buf, size, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &requests[w]);
                MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
                MPI_Send(ack, 4, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
            }
        }
        if (rank == 0) {
            double seconds = MPI_Wtime() - start;
            printf("%-10ld%18.2f\n", size, size / 1e6 * iterations * window / seconds);
        }
        fflush(stdout);
    }
    free(requests);
    free(buf);
    MPI_Finalize();
    return 0;
}
