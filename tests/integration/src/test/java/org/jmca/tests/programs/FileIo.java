package org.jmca.tests.programs;

import static org.jmca.tests.programs.Check.equal;
import static org.jmca.tests.programs.Check.fails;
import static org.jmca.tests.programs.Check.that;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * MPI-IO in the directory args[0]: every rank writes its interleaved view of one file
 * collectively (blocks of B ints, rank r's the r-th of every tile), and rank 0 checks the file's
 * bytes with plain Java I/O; then reads back (collectively with one aggregator and with all,
 * split and independent), explicit offsets, the shared pointer (shared and ordered writes),
 * sizes, seeks, byte offsets, and the error classes of bad opens and accesses.
 */
public final class FileIo {
    private static final int B = 3;
    private static final int K = 5;

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int n = MPI.COMM_WORLD.getSize();
        Path dir = Path.of(args[0]);
        String name = dir.resolve("interleaved.dat").toString();

        // a tile holds every rank's block of B ints; this rank's starts r blocks in
        Datatype block = Datatype.createResized(Datatype.createContiguous(B, MPI.INT), 0, n * B * 4);
        block.commit();
        int[] mine = new int[K * B];
        Arrays.setAll(mine, i -> rank * 1_000_000 + i);

        File file = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
        file.setView((long) rank * B * 4, MPI.INT, block, "native");
        Status written = file.writeAll(mine, mine.length, MPI.INT);
        equal(written.getCount(MPI.INT), mine.length, "ints written collectively");
        equal(file.getPosition(), mine.length, "individual pointer after writeAll");
        equal(file.getByteOffset(B), (long) (n * B + rank * B) * 4, "byte offset of the second tile's first int");
        file.sync();
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            checkInterleaved(Path.of(name), n);
        }

        int[] back = new int[mine.length];
        file.seek(0, MPI.SEEK_SET);
        file.readAll(back, back.length, MPI.INT);
        that(Arrays.equals(back, mine), "readAll through the view " + Arrays.toString(back));
        int[] split = new int[mine.length];
        file.readAtAllBegin(0, split, split.length, MPI.INT);
        Status splitStatus = file.readAtAllEnd(split);
        that(Arrays.equals(split, mine) && splitStatus.getCount(MPI.INT) == mine.length, "split collective read");
        int[] one = new int[B];
        file.readAt(K - 1, one, B, MPI.INT); // independent, from the last tile
        equal(one[0], rank * 1_000_000L + (K - 1), "independent read at an offset");
        file.seek(0, MPI.SEEK_END);
        equal(file.getPosition(), (long) K * B, "SEEK_END is the end of this rank's data in the view");
        file.close();

        // one aggregator does all the file access of the collective read
        Info oneAggregator = new Info();
        oneAggregator.set("cb_nodes", "1");
        File again = new File(MPI.COMM_WORLD, name, MPI.MODE_RDONLY, oneAggregator);
        again.setView((long) rank * B * 4, MPI.INT, block, "native");
        int[] viaOne = new int[mine.length];
        again.readAll(viaOne, viaOne.length, MPI.INT);
        that(Arrays.equals(viaOne, mine), "readAll with one aggregator");
        equal(again.getSize(), (long) n * K * B * 4, "file size");
        again.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_READ_ONLY, () -> again.write(mine, 1, MPI.INT), "write to a read-only file");
        fails(MPI.ERR_UNSUPPORTED_DATAREP, () -> again.setView(0, MPI.INT, MPI.INT, "external32"), "external32");
        again.close();

        // ROMIO's hint: each process reads its own pieces, without aggregators
        Info direct = new Info();
        direct.set("romio_cb_read", "disable");
        File third = new File(MPI.COMM_WORLD, name, MPI.MODE_RDONLY, direct);
        third.setView((long) rank * B * 4, MPI.INT, block, "native");
        int[] own = new int[mine.length];
        third.readAll(own, own.length, MPI.INT);
        that(Arrays.equals(own, mine), "readAll without collective buffering");
        third.close();
        Info bad = new Info();
        bad.set("romio_cb_write", "sometimes");
        fails(MPI.ERR_INFO_VALUE, () -> new File(MPI.COMM_WORLD, name, MPI.MODE_RDONLY, bad), "a bad romio_cb_write");

        explicitOffsetsAndSizes(dir, rank, n);
        sharedPointer(dir, rank, n);
        badOpens(dir, name, rank);

        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            File.delete(name);
            that(!Files.exists(Path.of(name)), "File.delete removed the file");
        }
        block.free();
        System.out.println("PASS file io rank " + rank);
        MPI.Finalize();
    }

    /** The file as plain bytes: int j belongs to rank (j / B) % n, its element k B + j % B of tile k. */
    private static void checkInterleaved(Path path, int n) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.nativeOrder());
        equal(bytes.capacity(), (long) n * K * B * 4, "bytes in the file");
        for (int j = 0; j < n * K * B; j++) {
            int owner = (j / B) % n;
            int element = (j / (B * n)) * B + j % B;
            equal(bytes.getInt(4 * j), owner * 1_000_000L + element, "int " + j + " of the file");
        }
    }

    private static void explicitOffsetsAndSizes(Path dir, int rank, int n) throws MPIException, IOException {
        String name = dir.resolve("offsets.dat").toString();
        File file = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_WRONLY | MPI.MODE_DELETE_ON_CLOSE);
        byte[] eight = new byte[8];
        Arrays.fill(eight, (byte) (rank + 1));
        file.iWriteAt(8L * rank, ByteBuffer.wrap(eight), 8, MPI.BYTE).waitFor();
        file.setAtomicity(true);
        that(file.getAtomicity(), "atomic mode");
        file.writeAt(8L * n + rank, new byte[] {(byte) (100 + rank)}, 1, MPI.BYTE);
        file.sync();
        MPI.COMM_WORLD.barrier();
        byte[] all = Files.readAllBytes(Path.of(name));
        equal(all.length, 9L * n, "size after explicit-offset writes");
        for (int r = 0; r < n; r++) {
            equal(all[8 * r + 7], r + 1, "rank " + r + "'s 8 bytes");
            equal(all[8 * n + r], 100 + r, "rank " + r + "'s atomic byte");
        }
        file.setSize(8);
        equal(file.getSize(), 8, "setSize truncates");
        file.preallocate(64);
        equal(file.getSize(), 64, "preallocate extends");
        file.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_ACCESS, () -> file.read(new byte[1], 1, MPI.BYTE), "read from a write-only file");
        fails(MPI.ERR_ARG, () -> file.seek(-1, MPI.SEEK_SET), "seek before the start");
        file.close();
        MPI.COMM_WORLD.barrier();
        that(!Files.exists(Path.of(name)), "MPI.MODE_DELETE_ON_CLOSE deleted the file");
    }

    private static void sharedPointer(Path dir, int rank, int n) throws MPIException, IOException {
        String name = dir.resolve("shared.dat").toString();
        File file = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
        file.setView(0, MPI.INT, MPI.INT, "native");
        file.writeShared(new int[] {rank, rank}, 2, MPI.INT);
        MPI.COMM_WORLD.barrier();
        equal(file.getPositionShared(), 2L * n, "shared pointer after every rank's writeShared");
        int[] ordered = new int[rank + 1];
        Arrays.fill(ordered, 10 + rank);
        file.writeOrdered(ordered, ordered.length, MPI.INT);
        long total = 2L * n + (long) n * (n + 1) / 2;
        equal(file.getPositionShared(), total, "shared pointer after writeOrdered");

        file.sync();
        int[] whole = new int[(int) total];
        file.readAt(0, whole, whole.length, MPI.INT);
        int[] pairs = new int[n];
        for (int i = 0; i < 2 * n; i += 2) {
            equal(whole[i], whole[i + 1], "a writeShared pair stays together");
            pairs[whole[i]]++;
        }
        that(Arrays.stream(pairs).allMatch(c -> c == 1), "each rank's pair once: " + Arrays.toString(pairs));
        int at = 2 * n;
        for (int r = 0; r < n; r++) {
            for (int k = 0; k <= r; k++) {
                equal(whole[at++], 10 + r, "writeOrdered in rank order");
            }
        }
        file.seekShared(0, MPI.SEEK_SET);
        int[] first = new int[2];
        file.readOrdered(first, rank == 0 ? 2 : 0, MPI.INT);
        if (rank == 0) {
            equal(first[0], first[1], "readOrdered from the start");
        }
        Status status = file.iReadAt(total, IntBuffer.allocate(4), 4, MPI.INT).waitStatus();
        equal(status.getCount(MPI.INT), 0, "a read at the end of the file reads nothing");
        file.close();
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            File.delete(name);
        }
    }

    private static void badOpens(Path dir, String existing, int rank) throws MPIException {
        fails(MPI.ERR_NO_SUCH_FILE, () -> new File(MPI.COMM_WORLD, dir.resolve("none.dat").toString(),
                MPI.MODE_RDONLY), "open a file that is not there");
        fails(MPI.ERR_AMODE, () -> new File(MPI.COMM_WORLD, existing, MPI.MODE_RDONLY | MPI.MODE_WRONLY),
                "two access modes");
        fails(MPI.ERR_FILE_EXISTS, () -> new File(MPI.COMM_WORLD, existing, MPI.MODE_CREATE | MPI.MODE_EXCL
                | MPI.MODE_WRONLY), "MPI.MODE_EXCL on a file that exists");
        if (rank == 0) {
            fails(MPI.ERR_NO_SUCH_FILE, () -> File.delete(dir.resolve("none.dat").toString()), "delete nothing");
        }
    }
}
