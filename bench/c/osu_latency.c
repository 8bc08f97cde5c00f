/* OSU-style ping-pong latency: half the round trip between ranks 0 and 1, in microseconds.
 * Usage: osu_latency [MAXSIZE [ITERATIONS [WARMUP]]] (sizes 0, 1, 2, 4, ... MAXSIZE). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long max = argc > 1 ? atol(argv[1]) : (1 << 22);
    int iterations = argc > 2 ? atoi(argv[2]) : 10000;
    int warmup = argc > 3 ? atoi(argv[3]) : 1000;
    char *buf = malloc(max > 0 ? max : 1);
    memset(buf, 1, max > 0 ? max : 1);
    if (rank == 0) printf("# OSU MPI Latency Test (C, Open MPI)\n# Size          Latency (us)\n");
    for (long size = 0; size <= max; size = size ? size * 2 : 1) {
        int iters = size > 8192 ? iterations / 10 + 1 : iterations;
        double start = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iters + warmup; i++) {
            if (i == warmup) start = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        if (rank == 0) printf("%-10ld%18.2f\n", size, (MPI_Wtime() - start) * 1e6 / (2.0 * iters));
        fflush(stdout);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
