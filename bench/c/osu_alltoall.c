/* OSU-style alltoall latency: MPI_Alltoall of SIZE bytes (MPI_CHAR) to every rank. Same table as
 * bench.OsuAlltoall. Usage: osu_alltoall [MAXSIZE [ITERATIONS [WARMUP [FULL]]]] (see osu_collective.h) */
#include <string.h>
#include "osu_collective.h"

static char *sendbuf, *recvbuf;

static void alltoall(long size) {
    MPI_Alltoall(sendbuf, (int) size, MPI_CHAR, recvbuf, (int) size, MPI_CHAR, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    struct osu_options o;
    if (!osu_start(argc, argv, &o)) return 1;
    size_t bytes = (size_t) (o.max > 0 ? o.max : 1) * (size_t) o.nranks;
    sendbuf = malloc(bytes);
    recvbuf = malloc(bytes);
    memset(sendbuf, 1, bytes);
    memset(recvbuf, 0, bytes);
    osu_print_header(&o, "OSU MPI All-to-All Personalized Exchange Latency Test");
    osu_run_sizes(&o, alltoall, 1);
    free(recvbuf);
    free(sendbuf);
    MPI_Finalize();
    return 0;
}
