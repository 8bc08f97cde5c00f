package mpi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlModule;
import org.jmca.osc.OscError;
import org.jmca.osc.OscException;
import org.jmca.osc.OscWindow;
import org.jmca.osc.SharedWindowFile;
import org.jmca.osc.WindowEnvironment;
import org.jmca.osc.WindowPeer;
import org.jmca.runtime.ErrorClass;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.JobRuntime;
import org.jmca.runtime.Keyvals;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.Type;
import org.jmca.runtime.UserBuffer;

/**
 * An MPI window ({@code MPI_Win}), as in Open MPI's Java bindings: memory of every rank of a
 * communicator that the others put into, get from and accumulate into, with fence,
 * post/start/complete/wait and lock/unlock synchronization.
 *
 * <p>Buffers are direct NIO buffers, as Open MPI's bindings require. Each operation goes over
 * the BTL's put or get where the BTL that reaches the target can (btl/lapi, btl/verbs), and as
 * active messages on the window's own context otherwise; accumulates always go as active
 * messages, carried out where the window is. Errors raise the MPI error classes: a call outside
 * an epoch MPI_ERR_RMA_SYNC, a negative displacement MPI_ERR_DISP, target memory outside the
 * window MPI_ERR_RMA_RANGE, a freed window MPI_ERR_WIN; through the window's error handler
 * ({@link MPI#ERRORS_ARE_FATAL} unless set).
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private static final int FLAVOR_CREATE = 1;
    private static final int FLAVOR_ALLOCATE = 2;
    private static final int FLAVOR_SHARED_VALUE = 4;

    private static final Keyvals KEYVALS = new Keyvals("Win", 1000);

    private final Comm comm;
    private final int dispUnit;
    private final int flavor;
    /** This rank's memory of the window. */
    private MemorySegment memory;
    /** Every rank's memory, as this rank maps it: a shared window's only, else null. */
    private MemorySegment[] shared;
    /** What JMCA allocated or mapped for the window, closed when it is freed; null for a created window. */
    private Arena arena;
    private final OscWindow window;
    /** The keys under which this rank's BTLs expose the window, withdrawn at free. */
    private List<WindowPeer.RdmaKeys> exposures = List.of();
    private final Map<Integer, Object> attributes = new HashMap<>();
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private String name = "";
    private Info info;

    /**
     * {@code MPI_WIN_CREATE}: the window is {@code size} elements of {@code base}, displacements
     * count {@code dispUnit} elements. A rank that exposes no memory passes a null {@code base}
     * and size 0. Collective over {@code comm}.
     */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        this(base, size, dispUnit, info, comm, FLAVOR_CREATE, "MPI_Win_create");
    }

    /**
     * {@code MPI_WIN_ALLOCATE} ({@link #FLAVOR_PRIVATE}) and {@code MPI_WIN_ALLOCATE_SHARED}
     * ({@link #FLAVOR_SHARED}): JMCA allocates the window's {@code size} elements, zeroed, of
     * {@code base}'s element type, and, as Open MPI's bindings do, writes their address into
     * {@code base}'s first 8 bytes when it has them. A program reaches its own memory and, in a
     * shared window, every peer's through {@link #sharedQuery}. A shared window needs every rank
     * of the communicator on one host (MPI_ERR_RMA_SHARED otherwise).
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        this(base, size, dispUnit, info, comm, switch (flavor) {
            case FLAVOR_PRIVATE -> FLAVOR_ALLOCATE;
            case FLAVOR_SHARED -> FLAVOR_SHARED_VALUE;
            default -> throw new IllegalArgumentException("flavor " + flavor + " is neither Win.FLAVOR_PRIVATE nor"
                    + " Win.FLAVOR_SHARED");
        }, flavor == FLAVOR_SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate");
    }

    /**
     * {@code MPI_WIN_CREATE_DYNAMIC}. JMCA does not support dynamic windows yet (a Java program has
     * no MPI_Get_address to name attached memory by): MPI_ERR_UNSUPPORTED_OPERATION.
     */
    public Win(Info info, Comm comm) throws MPIException {
        throw comm.handleError("MPI_Win_create_dynamic", new MPIException(MPI.ERR_UNSUPPORTED_OPERATION,
                "JMCA does not support dynamic windows; create the window over a buffer (new Win(base, size, ...))"));
    }

    private Win(Buffer base, int size, int dispUnit, Info info, Comm comm, int flavor, String operation)
            throws MPIException {
        if (base != null && !base.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
        this.comm = comm;
        this.flavor = flavor;
        this.info = info == null || info.isNull() ? new Info() : info.dup();
        int element = base == null ? 1 : MPIException.mapped(() -> UserBuffer.elementSize(base));
        this.dispUnit = dispUnit * element;
        long bytes = (long) size * element;
        if (size < 0 || dispUnit <= 0) {
            throw comm.handleError(operation, new MPIException(size < 0 ? MPI.ERR_SIZE : MPI.ERR_ARG, size < 0
                    ? "the window's size " + size + " is negative" : "the displacement unit " + dispUnit
                    + " is not positive"));
        }
        if (flavor == FLAVOR_CREATE) {
            long room = base == null ? 0 : MemorySegment.ofBuffer(base.duplicate().clear()).byteSize();
            if (bytes > room) {
                throw comm.handleError(operation, new MPIException(MPI.ERR_SIZE, "a window of " + size
                        + " elements (" + bytes + " bytes) does not fit " + (base == null ? "a null buffer"
                        : "the buffer of " + room + " bytes")));
            }
            this.memory = base == null ? MemorySegment.NULL : MemorySegment.ofBuffer(base.duplicate().clear())
                    .asSlice(0, bytes);
        }
        this.window = comm.call(operation, rt -> open(rt, comm, bytes));
        if (flavor != FLAVOR_CREATE && base != null && !base.isReadOnly()) {
            MemorySegment pointer = MemorySegment.ofBuffer(base.duplicate().clear());
            if (pointer.byteSize() >= Long.BYTES) {
                pointer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, memory.address());
            }
        }
    }

    private OscWindow open(JobRuntime rt, Comm comm, long bytes) throws MPIException {
        if (comm.isInter()) {
            throw new MPIException(MPI.ERR_COMM, "windows are made over an intracommunicator, not the"
                    + " intercommunicator " + comm);
        }
        if (flavor == FLAVOR_SHARED_VALUE) {
            for (int jobRank : comm.core.jobRanks) {
                if (!rt.hostOf(jobRank).equals(rt.job.hostname())) {
                    throw new MPIException(MPI.ERR_RMA_SHARED, "a shared window needs every rank on one host, but"
                            + " job rank " + jobRank + " is on " + rt.hostOf(jobRank));
                }
            }
        }
        int context = Comm.agreeOnContext(rt, comm);
        if (flavor == FLAVOR_ALLOCATE) {
            arena = Arena.ofShared();
            memory = arena.allocate(bytes, 64);
        } else if (flavor == FLAVOR_SHARED_VALUE) {
            allocateShared(rt, comm, bytes);
        }
        List<WindowPeer.RdmaKeys> keys = memory.byteSize() == 0 ? List.of() : OscWindow.expose(memory, rt.btls);
        WindowPeer mine = new WindowPeer(memory.address(), memory.byteSize(), dispUnit, keys);
        int[] all = InternalCollectives.allgather(comm.core, mine.encode());
        List<String> components = rt.btls.stream().map(BtlModule::componentName).toList();
        WindowPeer[] peers = new WindowPeer[comm.size()];
        for (int r = 0; r < peers.length; r++) {
            peers[r] = WindowPeer.decode(all, r, components);
        }
        exposures = keys;
        WindowEnvironment env = new WindowEnvironment(comm.rank(), comm.core.jobRanks, rt.pml, rt.progress, context,
                context + 1, (op, type) -> Op.ofCode(op, Datatype.ofCode(type)), rt.oscCounters);
        return OscWindow.open(env, memory, peers);
    }

    /**
     * One block of memory for the whole shared window, each rank's part after the lower ranks': a
     * file that every rank maps, thread ranks too (and ranks of other jobs on the host).
     */
    private void allocateShared(JobRuntime rt, Comm comm, long bytes) throws MPIException {
        int[] sizes = InternalCollectives.allgather(comm.core, new int[] {(int) (bytes >>> 32), (int) bytes});
        long[] offsets = new long[comm.size() + 1];
        for (int r = 0; r < comm.size(); r++) {
            offsets[r + 1] = offsets[r] + ((long) sizes[2 * r] << 32 | sizes[2 * r + 1] & 0xFFFFFFFFL);
        }
        MemorySegment whole = mapShared(rt, comm, offsets[comm.size()]);
        shared = new MemorySegment[comm.size()];
        for (int r = 0; r < shared.length; r++) {
            shared[r] = whole.asSlice(offsets[r], offsets[r + 1] - offsets[r]);
        }
        memory = shared[comm.rank()];
    }

    /**
     * Rank 0 makes the file (in its job's session directory, else in /dev/shm) and tells the
     * others its name; all map it; rank 0 removes it.
     */
    private MemorySegment mapShared(JobRuntime rt, Comm comm, long total) throws MPIException {
        byte[] path = null;
        String failure = null;
        if (comm.rank() == 0) {
            Path directory = rt.job.sessionDirectory() != null ? rt.job.sessionDirectory()
                    : Files.isWritable(Path.of("/dev/shm")) ? Path.of("/dev/shm")
                    : Path.of(System.getProperty("java.io.tmpdir"));
            try {
                path = SharedWindowFile.create(directory, total).toString().getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                failure = "cannot make the shared window's file in " + directory + ": " + e;
                path = new byte[0];
            }
        }
        Path file = Path.of(new String(InternalCollectives.bcastBytes(comm.core, path, 0), StandardCharsets.UTF_8));
        MemorySegment whole = null;
        if (!file.toString().isEmpty()) {
            arena = Arena.ofShared();
            try {
                whole = SharedWindowFile.map(file, total, arena);
            } catch (IOException e) {
                failure = "cannot map the shared window's file " + file + ": " + e;
            }
        }
        boolean anyFailed = InternalCollectives.allreduceMax(comm.core, failure == null ? 0 : 1) != 0;
        if (comm.rank() == 0 && !file.toString().isEmpty()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the session directory goes at the job's end, and the file with it
            }
        }
        if (anyFailed) {
            if (arena != null) {
                arena.close();
            }
            throw new MPIException(MPI.ERR_NO_MEM, failure != null ? failure
                    : "another rank could not map the shared window's memory (it reports why)");
        }
        return whole;
    }

    /**
     * {@code MPI_WIN_SHARED_QUERY} (a JMCA addition: Open MPI's bindings have none): {@code rank}'s
     * memory of a shared window as a direct buffer in this machine's byte order, which this rank
     * reads and writes in place; MPI.PROC_NULL gives the lowest rank's that has memory. Of a window
     * of another flavor, only this rank's own memory (MPI_ERR_RMA_FLAVOR for another rank's).
     */
    public ByteBuffer sharedQuery(int rank) throws MPIException {
        return call("MPI_Win_shared_query", () -> {
            checkNotFreed();
            MemorySegment part;
            if (shared != null && rank == MPI.PROC_NULL) {
                part = java.util.Arrays.stream(shared).filter(m -> m.byteSize() > 0).findFirst().orElse(shared[0]);
            } else if (rank < 0 || rank >= comm.size()) {
                throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is not in the window's group of "
                        + comm.size());
            } else if (shared != null) {
                part = shared[rank];
            } else if (rank == comm.rank()) {
                part = memory;
            } else {
                throw new MPIException(MPI.ERR_RMA_FLAVOR, "only a shared window (Win.FLAVOR_SHARED) gives a peer's"
                        + " memory; this one gives rank " + comm.rank() + "'s own only");
            }
            return part.asByteBuffer().order(ByteOrder.nativeOrder());
        });
    }

    // ---- calling into the window --------------------------------------------------------------

    /** A window operation's body. */
    private interface Body<T> {
        T run() throws OscException, MPIException;
    }

    /** Runs a call inside the library; failures of any kind go through the window's error handler. */
    private <T> T call(String operation, Body<T> body) throws MPIException {
        try {
            JobRuntime rt = comm.runtime();
            rt.enter();
            try {
                return body.run();
            } finally {
                rt.exit();
            }
        } catch (OscException e) {
            throw handle(operation, new MPIException(errorClass(e.error()), e.getMessage()));
        } catch (MPIException e) {
            throw handle(operation, e);
        } catch (MpiError e) {
            throw handle(operation, new MPIException(e.errorClass(), e.getMessage()));
        } catch (McaException | UncheckedIOException | IllegalStateException e) {
            throw handle(operation, new MPIException(MPI.ERR_OTHER, e.getMessage()));
        }
    }

    private void run(String operation, Body<?> body) throws MPIException {
        call(operation, body);
    }

    private static int errorClass(OscError error) {
        return switch (error) {
            case SYNC -> MPI.ERR_RMA_SYNC;
            case RANGE -> MPI.ERR_RMA_RANGE;
            case DISP -> MPI.ERR_DISP;
            case RANK -> MPI.ERR_RANK;
            case LOCKTYPE -> MPI.ERR_LOCKTYPE;
            case WIN -> MPI.ERR_WIN;
            case OP -> MPI.ERR_OP;
            case COUNT -> MPI.ERR_COUNT;
            case TYPE -> MPI.ERR_TYPE;
        };
    }

    private MPIException handle(String operation, MPIException e) {
        if (errhandler.isFatal()) {
            MPI.fatal(operation + " on a window of " + comm + ": " + e.getErrorClassName() + ": " + e.getMessage(),
                    e.getErrorClass());
        }
        return e;
    }

    /** The origin's bytes: {@code count} elements of {@code type} at the start of a direct buffer. */
    private static MemorySegment origin(Buffer buffer, int count, Datatype type, boolean receive) throws MPIException {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("The origin must be direct buffer.");
        }
        return Datatype.segment(buffer, count, type, receive);
    }

    /** Both datatypes must be the same predefined one, as Open MPI's bindings require. */
    private static void sameType(Datatype origin, Datatype target) {
        if (origin != null && origin.isDerived() || target != null && target.isDerived()) {
            throw new IllegalArgumentException("JMCA's windows take predefined datatypes only; " + (origin != null
                    && origin.isDerived() ? origin : target) + " is derived (issue 20: not built yet)");
        }
        if (origin == null || target == null || origin.base() != target.base() || origin.size() != target.size()) {
            throw new IllegalArgumentException("Both datatype arguments must be constructed from the same predefined"
                    + " datatype.");
        }
    }

    private static void sameCount(int originCount, int targetCount) throws MPIException {
        if (originCount != targetCount) {
            throw new MPIException(MPI.ERR_COUNT, "the origin count " + originCount + " and the target count "
                    + targetCount + " differ (both datatypes are the same type)");
        }
    }

    private static int target(int rank) {
        return rank == MPI.PROC_NULL ? OscWindow.PROC_NULL : rank;
    }

    // ---- communication ------------------------------------------------------------------------

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        rPut(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, false, "MPI_Put");
    }

    public final Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                              int targetCount, Datatype targetType) throws MPIException {
        return rPut(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, true, "MPI_Rput");
    }

    private Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                         int targetCount, Datatype targetType, boolean request, String name) throws MPIException {
        sameType(orgType, targetType);
        return call(name, () -> {
            sameCount(orgCount, targetCount);
            return request(window.put(origin(origin, orgCount, orgType, false), target(targetRank), targetDisp,
                    request));
        });
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        rGet(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, false, "MPI_Get");
    }

    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                              int targetCount, Datatype targetType) throws MPIException {
        return rGet(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, true, "MPI_Rget");
    }

    private Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                         int targetCount, Datatype targetType, boolean request, String name) throws MPIException {
        sameType(orgType, targetType);
        return call(name, () -> {
            sameCount(orgCount, targetCount);
            return request(window.get(origin(origin, orgCount, orgType, true), target(targetRank), targetDisp,
                    request));
        });
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                           int targetCount, Datatype targetType, Op op) throws MPIException {
        rAccumulate(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, op, false,
                "MPI_Accumulate");
    }

    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                               int targetCount, Datatype targetType, Op op) throws MPIException {
        return rAccumulate(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, op, true,
                "MPI_Raccumulate");
    }

    private Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                                int targetCount, Datatype targetType, Op op, boolean request, String name)
            throws MPIException {
        sameType(orgType, targetType);
        return call(name, () -> {
            sameCount(orgCount, targetCount);
            int code = opCode(op, targetType);
            return request(window.accumulate(origin(origin, orgCount, orgType, false), target(targetRank), targetDisp,
                    code, targetType.code(), targetType.size(), request));
        });
    }

    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                              Datatype resultType, int targetRank, int targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        rGetAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
                targetCount, targetType, op, false, "MPI_Get_accumulate");
    }

    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                                  Datatype resultType, int targetRank, int targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        return rGetAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
                targetCount, targetType, op, true, "MPI_Rget_accumulate");
    }

    private Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                                   int resultCount, Datatype resultType, int targetRank, int targetDisp,
                                   int targetCount, Datatype targetType, Op op, boolean request, String name)
            throws MPIException {
        sameType(orgType, targetType);
        sameType(resultType, targetType);
        return call(name, () -> {
            int code = opCode(op, targetType);
            sameCount(resultCount, targetCount);
            if (code != OscWindow.NO_OP) {
                sameCount(orgCount, targetCount);
            }
            MemorySegment data = code == OscWindow.NO_OP ? MemorySegment.NULL : origin(origin, orgCount, orgType, false);
            return request(window.getAccumulate(data, origin(resultAddr, resultCount, resultType, true),
                    target(targetRank), targetDisp, code, targetType.code(), targetType.size(), request));
        });
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op)
            throws MPIException {
        sameType(dataType, dataType);
        run("MPI_Fetch_and_op", () -> {
            int code = opCode(op, dataType);
            MemorySegment data = code == OscWindow.NO_OP ? MemorySegment.NULL : origin(origin, 1, dataType, false);
            return window.getAccumulate(data, origin(resultAddr, 1, dataType, true), target(targetRank), targetDisp,
                    code, dataType.code(), dataType.size(), false);
        });
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
                               int targetRank, int targetDisp) throws MPIException {
        run("MPI_Compare_and_swap", () -> {
            if (targetType.isPair() || targetType.base() == Type.Base.FLOAT
                    || targetType.base() == Type.Base.DOUBLE) {
                throw new MPIException(MPI.ERR_TYPE, "compareAndSwap takes integer, boolean and byte types, not "
                        + targetType);
            }
            window.compareAndSwap(origin(origin, 1, targetType, false), origin(compareAddr, 1, targetType, false),
                    origin(resultAddr, 1, targetType, true), target(targetRank), targetDisp, targetType.code(),
                    targetType.size());
            return null;
        });
    }

    private static int opCode(Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "the operation is null");
        }
        return op.oneSidedCode(type);
    }

    private Request request(org.jmca.osc.OscRequest operation) {
        return new Request(comm, operation, null);
    }

    // ---- synchronization ----------------------------------------------------------------------

    public void fence(int assertion) throws MPIException {
        run("MPI_Win_fence", () -> {
            checkAssertion(assertion, MPI.MODE_NOSTORE | MPI.MODE_NOPUT | MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED);
            window.fence(assertion);
            return null;
        });
    }

    public void start(Group group, int assertion) throws MPIException {
        run("MPI_Win_start", () -> {
            checkAssertion(assertion, MPI.MODE_NOCHECK);
            window.start(ranksOf(group));
            return null;
        });
    }

    public void complete() throws MPIException {
        run("MPI_Win_complete", () -> {
            window.complete();
            return null;
        });
    }

    public void post(Group group, int assertion) throws MPIException {
        run("MPI_Win_post", () -> {
            checkAssertion(assertion, MPI.MODE_NOCHECK | MPI.MODE_NOSTORE | MPI.MODE_NOPUT);
            window.post(ranksOf(group));
            return null;
        });
    }

    public void waitFor() throws MPIException {
        run("MPI_Win_wait", () -> {
            window.waitExposure();
            return null;
        });
    }

    public boolean test() throws MPIException {
        return call("MPI_Win_test", window::testExposure);
    }

    public void lock(int lockType, int rank, int assertion) throws MPIException {
        run("MPI_Win_lock", () -> {
            checkLocksAllowed();
            checkAssertion(assertion, MPI.MODE_NOCHECK);
            window.lock(lockType, target(rank));
            return null;
        });
    }

    public void unlock(int rank) throws MPIException {
        run("MPI_Win_unlock", () -> {
            window.unlock(target(rank));
            return null;
        });
    }

    public void lockAll(int assertion) throws MPIException {
        run("MPI_Win_lock_all", () -> {
            checkLocksAllowed();
            checkAssertion(assertion, MPI.MODE_NOCHECK);
            window.lockAll();
            return null;
        });
    }

    public void unlockAll() throws MPIException {
        run("MPI_Win_unlock_all", () -> {
            window.unlockAll();
            return null;
        });
    }

    public void sync() throws MPIException {
        run("MPI_Win_sync", () -> {
            window.sync();
            return null;
        });
    }

    public void flush(int targetRank) throws MPIException {
        run("MPI_Win_flush", () -> {
            window.flush(targetRank);
            return null;
        });
    }

    public void flushAll() throws MPIException {
        run("MPI_Win_flush_all", () -> {
            window.flushAll();
            return null;
        });
    }

    public void flushLocal(int targetRank) throws MPIException {
        run("MPI_Win_flush_local", () -> {
            window.flushLocal(targetRank);
            return null;
        });
    }

    public void flushLocalAll() throws MPIException {
        run("MPI_Win_flush_local_all", () -> {
            window.flushLocalAll();
            return null;
        });
    }

    /** A window made with the info key no_locks=true promised no passive-target epochs. */
    private void checkLocksAllowed() throws MPIException {
        if ("true".equals(info.get("no_locks"))) {
            throw new MPIException(MPI.ERR_RMA_SYNC, "the window was created with the info key no_locks=true:"
                    + " it takes no lock or lockAll");
        }
    }

    private static void checkAssertion(int assertion, int allowed) throws MPIException {
        if ((assertion & ~allowed) != 0) {
            throw new MPIException(MPI.ERR_ASSERT, "assertion " + assertion + " has bits this call does not take"
                    + " (it takes " + allowed + ")");
        }
    }

    /** The window's ranks of {@code group}'s processes (MPI_ERR_RANK for one outside the window). */
    private int[] ranksOf(Group group) throws MPIException {
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, "the group is null");
        }
        int[] jobRanks = group.jobRanks();
        int[] ranks = new int[jobRanks.length];
        for (int i = 0; i < jobRanks.length; i++) {
            ranks[i] = -1;
            for (int r = 0; r < comm.core.jobRanks.length; r++) {
                if (comm.core.jobRanks[r] == jobRanks[i]) {
                    ranks[i] = r;
                }
            }
            if (ranks[i] < 0) {
                throw new MPIException(MPI.ERR_RANK, "job rank " + jobRanks[i] + " of the group is not in the window");
            }
        }
        return ranks;
    }

    // ---- the window itself --------------------------------------------------------------------

    public Group getGroup() throws MPIException {
        return call("MPI_Win_get_group", () -> {
            checkNotFreed();
            return new Group(comm.core.jobRanks, comm.core.jobRanks[comm.rank()]);
        });
    }

    private void checkNotFreed() throws MPIException {
        if (window.freed()) {
            throw new MPIException(MPI.ERR_WIN, "the window has been freed");
        }
    }

    /** Collective: waits until no rank uses the window, then releases it. */
    public void free() throws MPIException {
        run("MPI_Win_free", () -> {
            window.free();
            for (BtlModule btl : comm.runtime().btls) {
                for (WindowPeer.RdmaKeys k : exposures) {
                    if (k.component().equals(btl.componentName())) {
                        for (long key : new long[] {k.getKey(), k.putKey()}) {
                            if (key != BtlModule.NOT_EXPOSED) {
                                btl.unexpose(key);
                            }
                        }
                    }
                }
            }
            if (arena != null) {
                arena.close();
            }
            return null;
        });
    }

    public boolean isNull() {
        return window.freed();
    }

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        if (errhandler == null) {
            throw handle("MPI_Win_set_errhandler", new MPIException(MPI.ERR_ARG, "the error handler is null"));
        }
        this.errhandler = errhandler;
    }

    public Errhandler getErrhandler() throws MPIException {
        return errhandler;
    }

    /** Calls the window's error handler with {@code errorCode}. */
    public void callErrhandler(int errorCode) throws MPIException {
        throw handle("MPI_Win_call_errhandler", new MPIException(errorCode, "error " + org.jmca.runtime.ErrorClass.name(errorCode)
                + " raised by the program"));
    }

    public static int createKeyval() throws MPIException {
        return KEYVALS.create();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        MPIException.mapped(() -> KEYVALS.free(keyval));
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        run("MPI_Win_set_attr", () -> attributes.put(KEYVALS.check(keyval), value));
    }

    /**
     * {@code MPI.WIN_BASE} (the address, a Long), {@code WIN_SIZE} (bytes), {@code WIN_DISP_UNIT}
     * (bytes), {@code WIN_CREATE_FLAVOR}, {@code WIN_MODEL}, or a set attribute (null if none); a
     * key that is neither predefined nor made by {@link #createKeyval} (or is freed) is MPI_ERR_KEYVAL.
     */
    public Object getAttr(int keyval) throws MPIException {
        return call("MPI_Win_get_attr", () -> switch (keyval) {
            case MPI.WIN_BASE -> memory.address();
            case MPI.WIN_SIZE -> (int) memory.byteSize();
            case MPI.WIN_DISP_UNIT -> dispUnit;
            case MPI.WIN_CREATE_FLAVOR -> flavor;
            case MPI.WIN_MODEL -> 0;
            default -> attributes.get(KEYVALS.check(keyval));
        });
    }

    public void deleteAttr(int keyval) throws MPIException {
        run("MPI_Win_delete_attr", () -> attributes.remove(KEYVALS.check(keyval)));
    }

    public Info getInfo() throws MPIException {
        return info;
    }

    public void setInfo(Info info) throws MPIException {
        this.info = info == null || info.isNull() ? new Info() : info.dup();
    }

    public String getName() throws MPIException {
        return name;
    }

    public void setName(String name) throws MPIException {
        this.name = name == null ? "" : name;
    }

    /** {@code MPI_WIN_ATTACH}: dynamic windows are not supported (MPI_ERR_UNSUPPORTED_OPERATION). */
    public void attach(Buffer base, int size) throws MPIException {
        throw handle("MPI_Win_attach", new MPIException(MPI.ERR_UNSUPPORTED_OPERATION,
                "JMCA does not support dynamic windows"));
    }

    /** {@code MPI_WIN_DETACH}: dynamic windows are not supported (MPI_ERR_UNSUPPORTED_OPERATION). */
    public void detach(Buffer base) throws MPIException {
        throw handle("MPI_Win_detach", new MPIException(MPI.ERR_UNSUPPORTED_OPERATION,
                "JMCA does not support dynamic windows"));
    }

    @Override
    public String toString() {
        return name.isEmpty() ? "a window over " + comm : name;
    }
}
