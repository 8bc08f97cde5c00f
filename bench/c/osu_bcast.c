/* OSU-style broadcast latency: MPI_Bcast of SIZE bytes (MPI_CHAR) from rank 0. Same table as
 * bench.OsuBcast. Usage: osu_bcast [MAXSIZE [ITERATIONS [WARMUP [FULL]]]] (see osu_collective.h) */
#include <string.h>
#include "osu_collective.h"

static char *buf;

static void bcast(long size) {
    MPI_Bcast(buf, (int) size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    struct osu_options o;
    if (!osu_start(argc, argv, &o)) return 1;
    size_t bytes = o.max > 0 ? (size_t) o.max : 1;
    buf = malloc(bytes);
    memset(buf, 1, bytes);
    osu_print_header(&o, "OSU MPI Broadcast Latency Test");
    osu_run_sizes(&o, bcast, 1);
    free(buf);
    MPI_Finalize();
    return 0;
}
