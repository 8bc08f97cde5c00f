/* io_interleaved: the C counterpart of bench.IoInterleaved (see there).
 * Arguments: DIR BLOCK BYTES_PER_RANK ITERATIONS all|independent. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[4096];
    snprintf(name, sizeof name, "%s/io-interleaved.dat", argv[1]);
    int block = atoi(argv[2]), per_rank = atoi(argv[3]), iterations = atoi(argv[4]);
    int collective = strcmp(argv[5], "all") == 0;
    MPI_Datatype contiguous, tile;
    MPI_Type_contiguous(block, MPI_BYTE, &contiguous);
    MPI_Type_create_resized(contiguous, 0, (MPI_Aint) size * block, &tile);
    MPI_Type_commit(&tile);
    char *data = malloc(per_rank);
    memset(data, rank, per_rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; i++) {
        MPI_File file;
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
        MPI_File_set_view(file, (MPI_Offset) rank * block, MPI_BYTE, tile, "native", MPI_INFO_NULL);
        if (collective) {
            MPI_File_write_all(file, data, per_rank, MPI_BYTE, MPI_STATUS_IGNORE);
        } else {
            MPI_File_write(file, data, per_rank, MPI_BYTE, MPI_STATUS_IGNORE);
        }
        MPI_File_close(&file);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double seconds = MPI_Wtime() - start;
    if (rank == 0) {
        printf("io-interleaved %s block %d: %.1f MB/s\n", argv[5], block,
               (double) size * per_rank * iterations / seconds / 1e6);
        MPI_File_delete(name, MPI_INFO_NULL);
    }
    MPI_Type_free(&tile);
    MPI_Type_free(&contiguous);
    free(data);
    MPI_Finalize();
    return 0;
}
