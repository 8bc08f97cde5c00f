/* The LAPI study's three measurements asked of MPI's one-sided interface, as bench.OneSidedStudy
 * asks them of JMCA: in a passive-target epoch (MPI_Win_lock_all) rank 0 puts or gets and waits
 * with MPI_Win_flush; Q_Depth MPI_Rgets then MPI_Waitall; the overlap pseudo-code with MPI_Rget
 * and a wait for the oldest. Rank 1 waits in a barrier. Same output lines as the Java program. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int SIZES[] = {2, 8, 60, 1168, 4096, 14337, 61639, 127812};
static const long N_FLOATS[] = {0, 250, 500, 1000, 1500, 2500, 4000, 6000, 10000, 20000};
#define NSIZES (int) (sizeof SIZES / sizeof SIZES[0])
#define NFLOATS (int) (sizeof N_FLOATS / sizeof N_FLOATS[0])
static volatile double sink;

static void cpu_loop(long n) {
    double x = sink;
    for (long i = 0; i < n; i++) {
        x = x * 1.000000001 + 1e-12;
    }
    sink = x;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double cpu_micros(long n) {
    if (n == 0) {
        return 0;
    }
    long reps = 2000000 / n > 1 ? 2000000 / n : 1;
    double runs[11];
    for (int r = 0; r < 11; r++) {
        double t = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            cpu_loop(n);
        }
        runs[r] = (MPI_Wtime() - t) * 1e6 / reps;
    }
    qsort(runs, 11, sizeof runs[0], compare);
    return runs[5];
}

static MPI_Win win;
static char *local;

static void latency(void) {
    for (int put = 1; put >= 0; put--) {
        for (int s = 0; s < NSIZES; s++) {
            int size = SIZES[s];
            int skip = size > 8192 ? 10 : 100, iterations = size > 8192 ? 1000 : 10000;
            double start = 0;
            for (int i = 0; i < skip + iterations; i++) {
                if (i == skip) {
                    start = MPI_Wtime();
                }
                if (put) {
                    MPI_Put(local, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
                } else {
                    MPI_Get(local, size, MPI_BYTE, 1, 0, size, MPI_BYTE, win);
                }
                MPI_Win_flush(1, win);
            }
            double us = (MPI_Wtime() - start) * 1e6 / iterations;
            printf("latency %s F %d %.2f %.1f\n", put ? "put" : "get", size, us, size / us);
        }
    }
}

static void batch(MPI_Request *requests, int q, int size) {
    for (int i = 0; i < q; i++) {
        MPI_Rget(local + (long) i * size, size, MPI_BYTE, 1, (MPI_Aint) i * size, size, MPI_BYTE, win, &requests[i]);
    }
    MPI_Waitall(q, requests, MPI_STATUSES_IGNORE);
}

static void queue_depth(void) {
    MPI_Request requests[16];
    int sizes[] = {8, 14337};
    for (int s = 0; s < 2; s++) {
        for (int q = 1; q <= 16; q++) {
            int batches = sizes[s] > 8192 ? 200 : 2000;
            for (int i = 0; i < batches / 10; i++) {
                batch(requests, q, sizes[s]);
            }
            double start = MPI_Wtime();
            for (int i = 0; i < batches; i++) {
                batch(requests, q, sizes[s]);
            }
            double us = (MPI_Wtime() - start) * 1e6 / ((double) batches * q);
            printf("qdepth %d %d %.2f %.1f\n", q, sizes[s], us, sizes[s] / us);
        }
    }
}

static void rget(MPI_Request *ring, int slot, int size) {
    MPI_Rget(local + (long) slot * size, size, MPI_BYTE, 1, (MPI_Aint) slot * size, size, MPI_BYTE, win, &ring[slot]);
}

static double point(int num_iter, int q_depth, int size, long n_float) {
    MPI_Request ring[16];
    int oldest = 0, next = 0, fill_level = (q_depth + 1) / 2;
    long flops = 0;
    double start = MPI_Wtime();
    for (int i = 0; i < q_depth; i++, next++) {
        rget(ring, next % 16, size);
    }
    int issued = q_depth;
    while (issued < num_iter) {
        cpu_loop(n_float * fill_level);
        flops += fill_level;
        int to_issue = num_iter - issued < fill_level ? num_iter - issued : fill_level;
        for (int i = 0; i < to_issue; i++, next++) {
            MPI_Wait(&ring[oldest++ % 16], MPI_STATUS_IGNORE);
            rget(ring, next % 16, size);
        }
        issued += to_issue;
    }
    cpu_loop(n_float * (num_iter - flops));
    while (oldest < next) {
        MPI_Wait(&ring[oldest++ % 16], MPI_STATUS_IGNORE);
    }
    return (MPI_Wtime() - start) * 1e6 / num_iter;
}

static void overlap(int num_iter) {
    double compute_us[NFLOATS];
    for (int i = 0; i < 200; i++) {
        cpu_loop(50000);
    }
    for (int i = 0; i < NFLOATS; i++) {
        compute_us[i] = cpu_micros(N_FLOATS[i]);
    }
    int sizes[] = {8, 5211}, depths[] = {1, 2, 4, 8};
    for (int s = 0; s < 2; s++) {
        for (int d = 0; d < 4; d++) {
            point(num_iter / 10, depths[d], sizes[s], 0);
            for (int i = 0; i < NFLOATS; i++) {
                printf("overlap %d %d %ld %.2f %.2f\n", depths[d], sizes[s], N_FLOATS[i], compute_us[i],
                       point(num_iter, depths[d], sizes[s], N_FLOATS[i]));
            }
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long window = 127812L * 16;
    char *base;
    base = malloc(window); /* as Java programs do: new Win(directBuffer, ...) is MPI_Win_create */
    MPI_Win_create(base, window, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        local = malloc(window);
        memset(local, 1, window);
        MPI_Win_lock_all(0, win);
        for (int i = 1; i < argc || (argc == 1 && i == 1); i++) {
            const char *test = argc == 1 ? NULL : argv[i];
            if (test == NULL || strcmp(test, "latency") == 0) latency();
            if (test == NULL || strcmp(test, "qdepth") == 0) queue_depth();
            if (test == NULL || strcmp(test, "overlap") == 0) overlap(10000);
        }
        MPI_Win_unlock_all(win);
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
