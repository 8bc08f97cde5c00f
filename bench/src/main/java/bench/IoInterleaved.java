package bench;

import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;

/**
 * A file written by every rank through an interleaved view (blocks of BLOCK bytes, rank r's the
 * r-th of every tile), collectively ({@code all}: two-phase) or independently, ITERATIONS
 * times, each an open, a view, the write and a close; timed from the first open. The same as
 * bench/c/io_interleaved.c. Arguments: DIR BLOCK BYTES_PER_RANK ITERATIONS all|independent.
 */
public final class IoInterleaved {
    private IoInterleaved() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        String name = Path.of(args[0], "io-interleaved.dat").toString();
        int block = Integer.parseInt(args[1]);
        int perRank = Integer.parseInt(args[2]);
        int iterations = Integer.parseInt(args[3]);
        boolean collective = args[4].equals("all");
        Datatype tile = Datatype.createResized(Datatype.createContiguous(block, MPI.BYTE), 0, size * block);
        tile.commit();
        byte[] data = new byte[perRank];
        java.util.Arrays.fill(data, (byte) rank);
        MPI.COMM_WORLD.barrier();
        double start = MPI.wtime();
        for (int i = 0; i < iterations; i++) {
            File file = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_WRONLY);
            file.setView((long) rank * block, MPI.BYTE, tile, "native");
            if (collective) {
                file.writeAll(data, perRank, MPI.BYTE);
            } else {
                file.write(data, perRank, MPI.BYTE);
            }
            file.close();
        }
        MPI.COMM_WORLD.barrier();
        double seconds = MPI.wtime() - start;
        if (rank == 0) {
            System.out.printf("io-interleaved %s block %d: %.1f MB/s%n", args[4], block,
                    (double) size * perRank * iterations / seconds / 1e6);
            File.delete(name);
        }
        tile.free();
        MPI.Finalize();
    }
}
