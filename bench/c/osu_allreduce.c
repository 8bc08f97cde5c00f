/* OSU-style allreduce latency: MPI_Allreduce of SIZE / 4 MPI_FLOATs with MPI_SUM (sizes holding
 * no whole float are left out, as OSU does). Same table as bench.OsuAllreduce.
 * Usage: osu_allreduce [MAXSIZE [ITERATIONS [WARMUP [FULL]]]] (see osu_collective.h) */
#include "osu_collective.h"

static float *sendbuf, *recvbuf;

static void allreduce(long size) {
    MPI_Allreduce(sendbuf, recvbuf, (int) (size / (long) sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    struct osu_options o;
    if (!osu_start(argc, argv, &o)) return 1;
    long count_max = o.max / (long) sizeof(float);
    sendbuf = malloc(sizeof(float) * (count_max > 0 ? count_max : 1));
    recvbuf = malloc(sizeof(float) * (count_max > 0 ? count_max : 1));
    for (long i = 0; i < count_max; i++) {
        sendbuf[i] = 1.0f;
        recvbuf[i] = 0.0f;
    }
    osu_print_header(&o, "OSU MPI Allreduce Latency Test");
    osu_run_sizes(&o, allreduce, sizeof(float));
    free(recvbuf);
    free(sendbuf);
    MPI_Finalize();
    return 0;
}
