/* OSU-style barrier latency: one row without a size column, as OSU prints it. Same table as
 * bench.OsuBarrier. Usage: osu_barrier [MAXSIZE [ITERATIONS [WARMUP [FULL]]]] (see
 * osu_collective.h; MAXSIZE is ignored, and there because bench/compare passes it to every program) */
#include "osu_collective.h"

static void barrier(long size) {
    (void) size;
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    struct osu_options o;
    if (!osu_start(argc, argv, &o)) return 1;
    double avg, min, max;
    osu_measure(barrier, 0, o.iterations, o.warmup, &avg, &min, &max);
    if (o.rank == 0) {
        printf("# OSU MPI Barrier Latency Test (C, Open MPI)\n# Avg Latency(us)");
        osu_print_full_header(&o);
        printf("%17.2f", avg);
        if (o.full) printf("%18.2f%18.2f%12d", min, max, o.iterations);
        printf("\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
