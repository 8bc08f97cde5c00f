/* The application loop in C, the counterpart of bench.AppLoop (same table): allreduce of one
 * double, bcast of 8 bytes, barrier and an 8-byte ping-pong, each timed in batches of calls
 * from the very first one. Usage: app_loop [BATCHES [CALLS [CALLS-TO-TIME]]] (default 10 batches
 * of 1000 calls of allreduce,bcast,barrier,pingpong: one column each, in that order). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *calls_known[] = {"allreduce", "bcast", "barrier", "pingpong"};

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int batches = argc > 1 ? atoi(argv[1]) : 10;
    int calls = argc > 2 ? atoi(argv[2]) : 1000;
    const char *only = argc > 3 ? argv[3] : "allreduce,bcast,barrier,pingpong";
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        return 1;
    }
    int timed[4];
    for (int c = 0; c < 4; c++) timed[c] = strstr(only, calls_known[c]) != NULL;
    double *table = calloc(4 * (size_t) batches, sizeof(double));
    double in = 1.0, out = 0.0;
    char bytes[8] = {0};
    for (int b = 0; timed[0] && b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        table[b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; timed[1] && b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Bcast(bytes, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        table[batches + b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; timed[2] && b < batches; b++) {
        double start = MPI_Wtime();
        for (int i = 0; i < calls; i++) MPI_Barrier(MPI_COMM_WORLD);
        table[2 * batches + b] = (MPI_Wtime() - start) * 1e6 / calls;
    }
    for (int b = 0; timed[3] && b < batches; b++) {
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
        printf("%-8s", "# Batch");
        for (int c = 0; c < 4; c++) if (timed[c]) printf("%14s", calls_known[c]);
        printf("\n");
        for (int b = 0; b < batches; b++) {
            printf("%-8d", b + 1);
            for (int c = 0; c < 4; c++) if (timed[c]) printf("%14.2f", table[c * batches + b]);
            printf("\n");
        }
        fflush(stdout);
    }
    free(table);
    MPI_Finalize();
    return 0;
}
