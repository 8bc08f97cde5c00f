/* What the OSU-style collective latency programs share: their arguments
 *   PROGRAM [MAXSIZE [ITERATIONS [WARMUP [FULL]]]]
 * (defaults 1048576, 1000 iterations after 200 warm-up, 100 after 10 above 8192 bytes; given
 * counts apply to every size; FULL 0), the loop that times each call alone after a barrier, the
 * per-rank average reduced to avg / min / max, and OSU's table. Same table as the Java versions. */
#ifndef OSU_COLLECTIVE_H
#define OSU_COLLECTIVE_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define LARGE_MESSAGE_SIZE 8192

struct osu_options {
    long max;
    int iterations, iterations_large, warmup, warmup_large, full, rank, nranks;
};

/* Reads the arguments; returns 0 (after MPI_Finalize) when there are fewer than two ranks. */
static inline int osu_start(int argc, char **argv, struct osu_options *o) {
    MPI_Comm_rank(MPI_COMM_WORLD, &o->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o->nranks);
    o->max = argc > 1 ? atol(argv[1]) : (1 << 20);
    o->iterations = argc > 2 ? atoi(argv[2]) : 1000;
    o->iterations_large = argc > 2 ? o->iterations : 100;
    o->warmup = argc > 3 ? atoi(argv[3]) : 200;
    o->warmup_large = argc > 3 ? o->warmup : 10;
    o->full = argc > 4 ? atoi(argv[4]) : 0;
    if (o->nranks < 2) {
        if (o->rank == 0) fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        return 0;
    }
    return 1;
}

static inline void osu_print_full_header(const struct osu_options *o) {
    if (o->full) printf("%18s%18s%12s", "Min Latency(us)", "Max Latency(us)", "Iterations");
    printf("\n");
}

/* Title and column header of a test over message sizes. */
static inline void osu_print_header(const struct osu_options *o, const char *title) {
    if (o->rank != 0) return;
    printf("# %s (C, Open MPI)\n%-10s%18s", title, "# Size", "Avg Latency(us)");
    osu_print_full_header(o);
}

/* Times ITERS calls of CALL(SIZE) after SKIP untimed ones, a barrier before each; returns at rank
 * 0 the average, minimum and maximum over the ranks' average latencies in microseconds. */
static inline void osu_measure(void (*call)(long), long size, int iters, int skip, double *avg, double *min,
                        double *max) {
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    double timer = 0;
    for (int i = 0; i < iters + skip; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        call(size);
        double stop = MPI_Wtime();
        if (i >= skip) timer += stop - start;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double latency = timer * 1e6 / iters, sum;
    MPI_Reduce(&latency, min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency, max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    *avg = sum / nranks;
}

/* One row per size, 1, 2, 4, ... max, leaving out sizes below MIN_SIZE. */
static inline void osu_run_sizes(const struct osu_options *o, void (*call)(long), long min_size) {
    for (long size = 1; size <= o->max; size *= 2) {
        if (size < min_size) continue;
        int iters = size > LARGE_MESSAGE_SIZE ? o->iterations_large : o->iterations;
        int skip = size > LARGE_MESSAGE_SIZE ? o->warmup_large : o->warmup;
        double avg, min, max;
        osu_measure(call, size, iters, skip, &avg, &min, &max);
        if (o->rank == 0) {
            printf("%-10ld%18.2f", size, avg);
            if (o->full) printf("%18.2f%18.2f%12d", min, max, iters);
            printf("\n");
            fflush(stdout);
        }
    }
}
#endif
