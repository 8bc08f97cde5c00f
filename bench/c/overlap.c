/* Overlap of communication and computation, the counterpart of bench.Overlap (same method, same
 * table): post-work-wait as SMB's mpi_overhead, between rank 0 (sender) and rank 1 (receiver).
 * For each size: the transfer alone (median over the iterations of each side's post to
 * completion, every iteration started by the receiver's 0-byte ready message), a work loop
 * calibrated to the slower side's transfer, then post, work, wait at the receiver and at the
 * sender. avail = 1 - (post + work + wait - work) / transfer alone, clamped to [0, 100] %.
 * Usage: overlap [MIN MAX] (bytes; default 262144 4194304, doubling). Untimed passes first, as
 * bench.Overlap makes them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA 1
#define READY 2

static volatile unsigned long long sink = 1;

static void spin(long long units) {
    unsigned long long x = sink;
    for (long long i = 0; i < units; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        x ^= x >> 29;
    }
    sink = x;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, n, sizeof(double), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One transfer of n bytes per iteration; work between post and wait on each side; this side's median. */
static double transfer(char *buf, int n, int iterations, int warmup, long long sender_units,
                       long long receiver_units, double *times) {
    int rank;
    char token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warmup + iterations; i++) {
        double start;
        MPI_Request request;
        if (rank == 0) {
            MPI_Recv(&token, 0, MPI_BYTE, 1, READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            start = MPI_Wtime();
            MPI_Isend(buf, n, MPI_BYTE, 1, DATA, MPI_COMM_WORLD, &request);
            spin(sender_units);
        } else {
            start = MPI_Wtime();
            MPI_Irecv(buf, n, MPI_BYTE, 0, DATA, MPI_COMM_WORLD, &request);
            MPI_Send(&token, 0, MPI_BYTE, 0, READY, MPI_COMM_WORLD);
            spin(receiver_units);
        }
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        if (i >= warmup) times[i - warmup] = MPI_Wtime() - start;
    }
    return median(times, iterations);
}

static double work_time(long long units, int iterations, double *times) {
    for (int i = 0; i < iterations; i++) {
        double start = MPI_Wtime();
        spin(units);
        times[i] = MPI_Wtime() - start;
    }
    return median(times, iterations);
}

static double availability(double overlapped, double work, double alone) {
    if (!(alone > 0)) return 0;
    double a = 1 - (overlapped - work) / alone;
    return a < 0 ? 0 : a > 1 ? 1 : a;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "This test requires exactly two processes\n");
        MPI_Finalize();
        return 1;
    }
    long min = argc > 2 ? atol(argv[1]) : 262144, max = argc > 2 ? atol(argv[2]) : 4194304;
    char *buf = malloc(max);
    memset(buf, 1, max);
    double *times = malloc(1000 * sizeof(double));
    /* the work loop's speed: the fastest of several long runs */
    double best = 1e9;
    for (int r = 0; r < 10; r++) {
        double start = MPI_Wtime();
        spin(2000000);
        double t = MPI_Wtime() - start;
        if (t < best) best = t;
    }
    double per_unit = best / 2000000;
    if (rank == 0) {
        printf("# MPI Overlap Test: post, work, wait (as SMB mpi_overhead) (C)\n");
        printf("# Size          Transfer(us)          Work(us)     Recv avail(%%)     Send avail(%%)\n");
    }
    for (long n = min; n <= max; n *= 2) {
        transfer(buf, (int) n, 10, 0, 0, 0, times);
    }
    for (long n = min; n <= max; n *= 2) {
        int iterations = 100, warmup = 10;
        double alone = transfer(buf, (int) n, iterations, warmup, 0, 0, times);
        double both[2];
        MPI_Allgather(&alone, 1, MPI_DOUBLE, both, 1, MPI_DOUBLE, MPI_COMM_WORLD);
        double target = both[0] > both[1] ? both[0] : both[1];
        long long units = (long long) (target / per_unit + 0.5);
        if (units < 1) units = 1;
        double worked = work_time(units, iterations, times);
        if (worked > 0) {
            units = (long long) (units * target / worked + 0.5);
            if (units < 1) units = 1;
            worked = work_time(units, iterations, times);
        }
        double at_receiver = transfer(buf, (int) n, iterations, warmup, 0, units, times);
        double at_sender = transfer(buf, (int) n, iterations, warmup, units, 0, times);
        double mine[3] = {alone, worked, rank == 0 ? at_sender : at_receiver};
        double all[6];
        MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("%-10ld %17.2f %17.2f %17.2f %17.2f\n", n, all[3] * 1e6, all[4] * 1e6,
                   availability(all[5], all[4], all[3]) * 100, availability(all[2], all[1], all[0]) * 100);
        }
    }
    free(times);
    free(buf);
    MPI_Finalize();
    return 0;
}
