package org.jmca.tests.programs;

import static org.jmca.tests.programs.Check.equal;
import static org.jmca.tests.programs.Check.fails;
import static org.jmca.tests.programs.Check.that;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import mpi.Datatype;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Info;
import mpi.Int2;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;
import mpi.Win;

/**
 * Behaviours of Open MPI's Java bindings that programs written for them rely on (issue 33),
 * each a check of its own on 2 or more ranks: a user function reading pair types through
 * {@code Struct.getData} on heap and direct buffers; {@code getElements} of a partial element;
 * a negative-stride vector over a slice of a direct buffer; the allocating window constructors
 * (private and shared, with {@code sharedQuery}); a window some ranks expose no memory in;
 * request-based operations in a fence epoch; {@code no_locks}; {@code getAttr} of a bad keyval;
 * {@code createDistGraph} with longer arrays than its edges need; MPI.INFO_ENV's keys. Prints
 * "PASS NAME rank R" or "FAIL NAME rank R: why" per check; exits 1 if one failed.
 */
public final class OpenMpiBehaviours {
    private interface Behaviour {
        void check(Intracomm world, int rank, int size) throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Map<String, Behaviour> checks = new LinkedHashMap<>();
        checks.put("user-function-pairs", OpenMpiBehaviours::userFunctionReadsPairs);
        checks.put("elements-of-a-partial-element", OpenMpiBehaviours::elementsOfAPartialElement);
        checks.put("negative-stride-on-a-slice", OpenMpiBehaviours::negativeStrideOnASlice);
        checks.put("window-allocate", OpenMpiBehaviours::windowAllocate);
        checks.put("window-allocate-shared", OpenMpiBehaviours::windowAllocateShared);
        checks.put("window-without-memory", OpenMpiBehaviours::windowWithoutMemory);
        checks.put("request-operations-in-fence", OpenMpiBehaviours::requestOperationsInFence);
        checks.put("window-no-locks", OpenMpiBehaviours::windowNoLocks);
        checks.put("window-bad-keyval", OpenMpiBehaviours::windowBadKeyval);
        checks.put("dist-graph-longer-arrays", OpenMpiBehaviours::distGraphLongerArrays);
        checks.put("info-env", OpenMpiBehaviours::infoEnv);
        boolean failed = false;
        for (Map.Entry<String, Behaviour> check : checks.entrySet()) {
            try {
                check.getValue().check(world, rank, size);
                System.out.println("PASS " + check.getKey() + " rank " + rank);
            } catch (MPIException | RuntimeException | AssertionError e) {
                failed = true;
                System.out.println("FAIL " + check.getKey() + " rank " + rank + ": " + e);
            }
            world.setErrhandler(MPI.ERRORS_ARE_FATAL);
            world.barrier();
        }
        MPI.Finalize();
        if (failed) {
            System.exit(1);
        }
    }

    /** MINLOC by hand: the user function reads and writes (value, index) pairs through MPI.int2. */
    private static void userFunctionReadsPairs(Intracomm world, int rank, int size) throws MPIException {
        Op minLoc = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) throws MPIException {
                for (int i = 0; i < count; i++) {
                    Int2.Data a = MPI.int2.getData(in, i);
                    Int2.Data b = MPI.int2.getData(inOut, i);
                    if (a.getValue() < b.getValue() || a.getValue() == b.getValue() && a.getIndex() < b.getIndex()) {
                        b.putValue(a.getValue());
                        b.putIndex(a.getIndex());
                    }
                }
            }
        }, true);
        // pair 0: the lowest rank's value wins; pair 1: the highest rank's
        int[] heap = {100 + rank, rank, 100 - rank, rank};
        int[] heapResult = new int[4];
        world.allReduce(heap, heapResult, 2, MPI.INT2, minLoc);
        that(Arrays.equals(heapResult, new int[] {100, 0, 101 - size, size - 1}), "heap int[] pairs: "
                + Arrays.toString(heapResult));
        IntBuffer direct = MPI.newIntBuffer(4).put(0, 100 + rank).put(1, rank).put(2, 100 - rank).put(3, rank);
        IntBuffer directResult = MPI.newIntBuffer(4);
        world.allReduce(direct, directResult, 2, MPI.INT2, minLoc);
        int[] got = new int[4];
        directResult.get(0, got);
        that(Arrays.equals(got, heapResult), "direct buffer pairs: " + Arrays.toString(got));
        minLoc.free();
    }

    /**
     * 33 bytes into four DoubleInt pairs end inside a basic element: MPI.UNDEFINED; 40 bytes are
     * two pairs (of 16 bytes in JMCA, as the Java struct lays them out) and a double: 5.
     */
    private static void elementsOfAPartialElement(Intracomm world, int rank, int size) throws MPIException {
        Datatype four = Datatype.createContiguous(4, MPI.DOUBLE_INT);
        four.commit();
        ByteBuffer bytes = MPI.newByteBuffer(64);
        if (rank == 0) {
            world.send(bytes, 33, MPI.BYTE, 1, 5);
            world.send(bytes, 40, MPI.BYTE, 1, 6);
        } else if (rank == 1) {
            ByteBuffer into = MPI.newByteBuffer(4 * 16);
            Status partial = world.recv(into, 1, four, 0, 5);
            equal(partial.getElements(four), MPI.UNDEFINED, "getElements after 33 bytes");
            equal(partial.getCount(four), MPI.UNDEFINED, "getCount after 33 bytes");
            Status whole = world.recv(into, 1, four, 0, 6);
            equal(whole.getElements(four), 5, "getElements after 40 bytes (two pairs and a double)");
            equal(whole.getElements(MPI.DOUBLE_INT), 5, "getElements of MPI.DOUBLE_INT after 40 bytes");
            equal(whole.getCount(MPI.DOUBLE_INT), MPI.UNDEFINED, "getCount of MPI.DOUBLE_INT after 40 bytes");
        }
        four.free();
    }

    /**
     * {@code createVector(12, 1, -2, MPI.SHORT)} from element 23 of a direct buffer's slice reaches
     * the 22 shorts below it: pack, unpack and point-to-point read and write them there.
     */
    private static void negativeStrideOnASlice(Intracomm world, int rank, int size) throws MPIException {
        Datatype backwards = Datatype.createVector(12, 1, -2, MPI.SHORT);
        backwards.commit();
        ShortBuffer whole = MPI.newShortBuffer(24);
        for (int i = 0; i < 24; i++) {
            whole.put(i, (short) i);
        }
        ShortBuffer last = MPI.slice(whole, 22);
        byte[] packed = new byte[24];
        int end = world.pack(last, 1, backwards, packed, 0);
        equal(end, 24, "pack's position");
        ShortBuffer values = ByteBuffer.wrap(packed).order(java.nio.ByteOrder.nativeOrder()).asShortBuffer();
        for (int k = 0; k < 12; k++) {
            equal(values.get(k), 22 - 2 * k, "packed short " + k);
        }
        ShortBuffer target = MPI.newShortBuffer(24);
        world.unpack(packed, 0, MPI.slice(target, 22), 1, backwards);
        for (int i = 0; i < 24; i++) {
            equal(target.get(i), i % 2 == 0 ? i : 0, "unpacked short " + i);
        }
        if (rank == 0) {
            world.send(last, 1, backwards, 1, 7);
        } else if (rank == 1) {
            ShortBuffer received = MPI.newShortBuffer(24);
            world.recv(MPI.slice(received, 22), 1, backwards, 0, 7);
            for (int i = 0; i < 24; i++) {
                equal(received.get(i), i % 2 == 0 ? i : 0, "received short " + i);
            }
        }
        // a heap array has nothing below index 0: refused, with its reason
        world.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_TYPE, () -> world.pack(new short[24], 1, backwards, packed, 0), "a heap array below index 0");
        fails(MPI.ERR_TYPE, () -> world.pack(MPI.newShortBuffer(24), 1, backwards, packed, 0),
                "a direct buffer that is no slice");
        backwards.free();
    }

    /** MPI_Win_allocate: JMCA's memory, zeroed, reached by put and get and by this rank's sharedQuery. */
    private static void windowAllocate(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer base = MPI.newIntBuffer(2);
        Win win = new Win(8, 1, MPI.INFO_NULL, world, base, Win.FLAVOR_PRIVATE);
        equal((Integer) win.getAttr(MPI.WIN_SIZE), 32, "WIN_SIZE in bytes");
        equal((Integer) win.getAttr(MPI.WIN_CREATE_FLAVOR), 2, "WIN_CREATE_FLAVOR");
        long address = (Long) win.getAttr(MPI.WIN_BASE);
        that(address != 0 && base.get(0) == (int) address, "base's first bytes hold the window's address, as in"
                + " Open MPI");
        int right = (rank + 1) % size;
        IntBuffer mark = MPI.newIntBuffer(1).put(0, 1000 + rank);
        win.fence(0);
        win.put(mark, 1, MPI.INT, right, 3, 1, MPI.INT);
        win.fence(0);
        IntBuffer mine = win.sharedQuery(rank).asIntBuffer();
        equal(mine.get(3), 1000 + (rank + size - 1) % size, "what the left neighbour put");
        equal(mine.get(0), 0, "allocated memory is zeroed");
        win.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_RMA_FLAVOR, () -> win.sharedQuery(right), "sharedQuery of a peer in a private window");
        win.free();
    }

    /**
     * MPI_Win_allocate_shared: each rank's part after the lower ranks', every part read and
     * written in place through sharedQuery; rank 0 allocates nothing.
     */
    private static void windowAllocateShared(Intracomm world, int rank, int size) throws MPIException {
        Intracomm node = world.splitType(mpi.Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
        int n = node.getRank() == 0 ? 0 : 4;
        Win win = new Win(n, 1, MPI.INFO_NULL, node, MPI.newIntBuffer(2), Win.FLAVOR_SHARED);
        win.fence(0);
        if (n > 0) {
            IntBuffer mine = win.sharedQuery(node.getRank()).asIntBuffer();
            for (int i = 0; i < n; i++) {
                mine.put(i, node.getRank() * 10 + i);
            }
        }
        win.fence(0);
        for (int r = 1; r < node.getSize(); r++) {
            IntBuffer theirs = win.sharedQuery(r).asIntBuffer();
            equal(theirs.capacity(), 4, "rank " + r + "'s part");
            for (int i = 0; i < 4; i++) {
                equal(theirs.get(i), r * 10 + i, "rank " + r + "'s element " + i + " read in place");
            }
        }
        equal(win.sharedQuery(0).capacity(), 0, "rank 0 allocated nothing");
        if (node.getSize() > 1) {
            equal(win.sharedQuery(MPI.PROC_NULL).asIntBuffer().get(0), 10, "PROC_NULL: the first part with memory");
        }
        win.fence(0);
        win.free();
        node.free();
    }

    /** Ranks other than 0 pass no buffer: the window exists, they are read from and written to nowhere. */
    private static void windowWithoutMemory(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = rank == 0 ? MPI.newIntBuffer(size) : null;
        Win win = new Win(memory, rank == 0 ? size : 0, 1, MPI.INFO_NULL, world);
        win.fence(0);
        win.put(MPI.newIntBuffer(1).put(0, 50 + rank), 1, MPI.INT, 0, rank, 1, MPI.INT);
        win.fence(0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                equal(memory.get(r), 50 + r, "what rank " + r + " put");
            }
        }
        win.setErrhandler(MPI.ERRORS_RETURN);
        if (size > 1) {
            win.fence(0);
            fails(MPI.ERR_RMA_RANGE, () -> win.put(MPI.newIntBuffer(1), 1, MPI.INT, 1, 0, 1, MPI.INT),
                    "an access to a rank without memory");
            win.fence(0);
        }
        win.free();
    }

    /** rPut, rGet, rAccumulate and rGetAccumulate between fences, as Open MPI takes them. */
    private static void requestOperationsInFence(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = MPI.newIntBuffer(4);
        Win win = new Win(memory, 4, 1, MPI.INFO_NULL, world);
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        win.fence(0);
        Request put = win.rPut(MPI.newIntBuffer(1).put(0, 7 + rank), 1, MPI.INT, right, 0, 1, MPI.INT);
        Request accumulate = win.rAccumulate(MPI.newIntBuffer(1).put(0, 3), 1, MPI.INT, right, 1, 1, MPI.INT,
                MPI.SUM);
        put.waitFor();
        accumulate.waitFor();
        win.fence(0);
        IntBuffer got = MPI.newIntBuffer(1);
        IntBuffer old = MPI.newIntBuffer(1);
        Request get = win.rGet(got, 1, MPI.INT, right, 0, 1, MPI.INT);
        Request getAccumulate = win.rGetAccumulate(MPI.newIntBuffer(1).put(0, 5), 1, MPI.INT, old, 1, MPI.INT,
                right, 2, 1, MPI.INT, MPI.SUM);
        get.waitFor();
        getAccumulate.waitFor();
        win.fence(0);
        equal(got.get(0), 7 + rank, "rGet of what this rank rPut");
        equal(old.get(0), 0, "rGetAccumulate's old value");
        equal(memory.get(0), 7 + left, "rPut from the left");
        equal(memory.get(1), 3, "rAccumulate from the left");
        equal(memory.get(2), 5, "rGetAccumulate from the left");
        win.free();
    }

    /** A window made with no_locks=true refuses lock and lockAll. */
    private static void windowNoLocks(Intracomm world, int rank, int size) throws MPIException {
        Info info = new Info();
        info.set("no_locks", "true");
        Win win = new Win(MPI.newIntBuffer(1), 1, 1, info, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, 0, 0), "lock under no_locks");
        fails(MPI.ERR_RMA_SYNC, () -> win.lockAll(0), "lockAll under no_locks");
        win.fence(0);
        win.fence(0);
        win.free();
        Win locking = new Win(MPI.newIntBuffer(1), 1, 1, MPI.INFO_NULL, world);
        locking.lock(MPI.LOCK_SHARED, 0, 0);
        locking.unlock(0);
        locking.free();
    }

    /** getAttr of a keyval never made, or freed: MPI_ERR_KEYVAL; a made one not set: null. */
    private static void windowBadKeyval(Intracomm world, int rank, int size) throws MPIException {
        Win win = new Win(MPI.newIntBuffer(1), 1, 1, MPI.INFO_NULL, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_KEYVAL, () -> win.getAttr(123_456), "getAttr of a keyval never made");
        int keyval = Win.createKeyval();
        that(win.getAttr(keyval) == null, "a keyval not set reads null");
        win.setAttr(keyval, "here");
        that("here".equals(win.getAttr(keyval)), "setAttr then getAttr");
        win.deleteAttr(keyval);
        Win.freeKeyval(keyval);
        fails(MPI.ERR_KEYVAL, () -> win.getAttr(keyval), "getAttr of a freed keyval");
        win.free();
    }

    /** sources.length sources; degrees, destinations and weights longer than that are read no further. */
    private static void distGraphLongerArrays(Intracomm world, int rank, int size) throws MPIException {
        int right = (rank + 1) % size;
        GraphComm ring = world.createDistGraph(new int[] {rank}, new int[] {1, 99, 99}, new int[] {right, -5, 77},
                new int[] {9, 9, 9}, MPI.INFO_NULL, false);
        DistGraphNeighbors neighbours = ring.getDistGraphNeighbors();
        equal(neighbours.getOutDegree(), 1, "out degree");
        equal(neighbours.getDestination(0), right, "destination");
        equal(neighbours.getInDegree(), 1, "in degree");
        equal(neighbours.getSource(0), (rank + size - 1) % size, "source");
        ring.free();
    }

    /** MPI.INFO_ENV holds Open MPI's keys. */
    private static void infoEnv(Intracomm world, int rank, int size) throws MPIException {
        for (String key : new String[] {"command", "argv", "maxprocs", "soft", "host", "arch", "wdir", "thread_level",
                "ompi_num_apps", "ompi_first_rank", "ompi_np", "ompi_positioned_file_dir"}) {
            that(MPI.INFO_ENV.get(key) != null, "MPI.INFO_ENV lacks '" + key + "'");
        }
        that(MPI.INFO_ENV.get("maxprocs").equals(Integer.toString(size)), "maxprocs");
        that(MPI.INFO_ENV.get("ompi_np").equals(Integer.toString(size)), "ompi_np");
        that(MPI.INFO_ENV.get("ompi_num_apps").equals("1") && MPI.INFO_ENV.get("ompi_first_rank").equals("0"),
                "one application context from rank 0");
        that(MPI.INFO_ENV.get("arch").equals(System.getProperty("os.arch").equals("amd64") ? "x86_64"
                : System.getProperty("os.arch")), "arch as uname -m: " + MPI.INFO_ENV.get("arch"));
    }
}
