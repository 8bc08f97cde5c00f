/* The application loop in C, the counterpart of bench.AppLoop (same table): allreduce of one
 * double, bcast of 8 bytes, barrier and an 8-byte ping-pong, each timed in batches of calls
 * from the very first one. Usage: app_loop [BATCHES [CALLS]] (default 10 batches of 1000). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int batches = argc > 1 ? atoi(argv[1]) : 10;
    int calls = argc > 2 ? atoi(argv[2]) : 1000;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        return 1;
    }
    double *table = calloc(4 * (size_t) batches, sizeof(double));
    double in = 1.0, out = 0.0;
    char bytes[8] = {0};
    for (int b = 0; b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        table[b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Bcast(bytes, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        table[batches + b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Barrier(MPI_COMM_WORLD);
        table[2 * batches + b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) {
            if (rank == 0) {
                MPI_Send(bytes, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(bytes, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(bytes, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(bytes, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        table[3 * batches + b] = (MPI_Wtime() - start) * 1e6 / (2.0 * calls);
    }
    if (rank == 0) {
        printf("# Open MPI application loop (C): mean us per call, batches of %d calls timed from the first\n", calls);
        printf("%-8s%14s%14s%14s%14s\n", "# Batch", "allreduce", "bcast", "barrier", "pingpong");
        for (int b = 0; b < batches; b++) {
            printf("%-8d%14.2f%14.2f%14.2f%14.2f\n", b + 1, table[b], table[batches + b],
                   table[2 * batches + b], table[3 * batches + b]);
        }
        fflush(stdout);
    }
    free(table);
    MPI_Finalize();
    return 0;
}
