package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mpi.InitWarmup;
import org.jmca.rte.WireUpException;
import org.jmca.rte.launcher.AppContexts;
import org.jmca.rte.launcher.ThreadJob;
import org.jmca.runtime.BufferedSends;
import org.jmca.runtime.Communicator;
import org.jmca.runtime.ErrorClass;
import org.jmca.runtime.FileAccess;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.JobRuntime;
import org.jmca.runtime.PredefinedOp;
import org.jmca.runtime.SliceOrigins;
import org.jmca.runtime.Spawning;
import org.jmca.runtime.Type;

/**
 * The entry point of the MPI API, as in Open MPI's Java bindings: initialization, constants,
 * predefined communicators and datatypes, buffers.
 */
public final class MPI {
    // Error classes, numbered as in Open MPI's mpi.h.
    public static final int SUCCESS = ErrorClass.SUCCESS;
    public static final int ERR_BUFFER = ErrorClass.BUFFER;
    public static final int ERR_COUNT = ErrorClass.COUNT;
    public static final int ERR_TYPE = ErrorClass.TYPE;
    public static final int ERR_TAG = ErrorClass.TAG;
    public static final int ERR_COMM = ErrorClass.COMM;
    public static final int ERR_RANK = ErrorClass.RANK;
    public static final int ERR_REQUEST = ErrorClass.REQUEST;
    public static final int ERR_ROOT = ErrorClass.ROOT;
    public static final int ERR_GROUP = ErrorClass.GROUP;
    public static final int ERR_OP = ErrorClass.OP;
    public static final int ERR_TOPOLOGY = ErrorClass.TOPOLOGY;
    public static final int ERR_DIMS = ErrorClass.DIMS;
    public static final int ERR_ARG = ErrorClass.ARG;
    public static final int ERR_UNKNOWN = ErrorClass.UNKNOWN;
    public static final int ERR_TRUNCATE = ErrorClass.TRUNCATE;
    public static final int ERR_OTHER = ErrorClass.OTHER;
    public static final int ERR_INTERN = ErrorClass.INTERN;
    public static final int ERR_IN_STATUS = ErrorClass.IN_STATUS;
    public static final int ERR_PENDING = ErrorClass.PENDING;
    public static final int ERR_ACCESS = ErrorClass.ACCESS;
    public static final int ERR_AMODE = ErrorClass.AMODE;
    public static final int ERR_ASSERT = ErrorClass.ASSERT;
    public static final int ERR_BAD_FILE = ErrorClass.BAD_FILE;
    public static final int ERR_BASE = ErrorClass.BASE;
    public static final int ERR_CONVERSION = ErrorClass.CONVERSION;
    public static final int ERR_DISP = ErrorClass.DISP;
    public static final int ERR_DUP_DATAREP = ErrorClass.DUP_DATAREP;
    public static final int ERR_FILE_EXISTS = ErrorClass.FILE_EXISTS;
    public static final int ERR_FILE_IN_USE = ErrorClass.FILE_IN_USE;
    public static final int ERR_FILE = ErrorClass.FILE;
    public static final int ERR_INFO_KEY = ErrorClass.INFO_KEY;
    public static final int ERR_INFO_NOKEY = ErrorClass.INFO_NOKEY;
    public static final int ERR_INFO_VALUE = ErrorClass.INFO_VALUE;
    public static final int ERR_INFO = ErrorClass.INFO;
    public static final int ERR_IO = ErrorClass.IO;
    public static final int ERR_KEYVAL = ErrorClass.KEYVAL;
    public static final int ERR_LOCKTYPE = ErrorClass.LOCKTYPE;
    public static final int ERR_NAME = ErrorClass.NAME;
    public static final int ERR_NO_MEM = ErrorClass.NO_MEM;
    public static final int ERR_NOT_SAME = ErrorClass.NOT_SAME;
    public static final int ERR_NO_SPACE = ErrorClass.NO_SPACE;
    public static final int ERR_NO_SUCH_FILE = ErrorClass.NO_SUCH_FILE;
    public static final int ERR_PORT = ErrorClass.PORT;
    public static final int ERR_QUOTA = ErrorClass.QUOTA;
    public static final int ERR_READ_ONLY = ErrorClass.READ_ONLY;
    public static final int ERR_RMA_CONFLICT = ErrorClass.RMA_CONFLICT;
    public static final int ERR_RMA_SYNC = ErrorClass.RMA_SYNC;
    public static final int ERR_SERVICE = ErrorClass.SERVICE;
    public static final int ERR_SIZE = ErrorClass.SIZE;
    public static final int ERR_SPAWN = ErrorClass.SPAWN;
    public static final int ERR_UNSUPPORTED_DATAREP = ErrorClass.UNSUPPORTED_DATAREP;
    public static final int ERR_UNSUPPORTED_OPERATION = ErrorClass.UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = ErrorClass.WIN;
    /** MPI_ERR_RMA_RANGE: target memory outside the window (a JMCA addition: Open MPI's bindings have no constant for it). */
    public static final int ERR_RMA_RANGE = ErrorClass.RMA_RANGE;
    /** MPI_ERR_RMA_SHARED: a shared-memory window over ranks that share no memory (a JMCA addition). */
    public static final int ERR_RMA_SHARED = ErrorClass.RMA_SHARED;
    /** MPI_ERR_RMA_FLAVOR: a call the window's flavor does not allow (a JMCA addition). */
    public static final int ERR_RMA_FLAVOR = ErrorClass.RMA_FLAVOR;
    public static final int ERR_LASTCODE = ErrorClass.LASTCODE;
    public static final int ERR_SYSRESOURCE = ErrorClass.SYSRESOURCE;

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int ANY_SOURCE = Communicator.ANY_SOURCE;
    public static final int ANY_TAG = Communicator.ANY_TAG;
    public static final int PROC_NULL = Communicator.PROC_NULL;
    public static final int UNDEFINED = -32766;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    /** The version of the MPI standard implemented: 3.1. */
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;

    /** In an intercommunicator collective, the root's own group names the root with this. */
    public static final int ROOT = -4;
    public static final int KEYVAL_INVALID = -1;

    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;

    /** Topologies ({@code comm.getTopology()}; MPI.UNDEFINED for none), as in Open MPI's mpi.h. */
    public static final int GRAPH = 1;
    public static final int CART = 2;
    public static final int DIST_GRAPH = 3;

    // MPI-IO: access modes, seek origins, the current view's displacement, array orders and distributions.
    public static final int MODE_CREATE = FileAccess.MODE_CREATE;
    public static final int MODE_RDONLY = FileAccess.MODE_RDONLY;
    public static final int MODE_WRONLY = FileAccess.MODE_WRONLY;
    public static final int MODE_RDWR = FileAccess.MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE = FileAccess.MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN = FileAccess.MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL = FileAccess.MODE_EXCL;
    public static final int MODE_APPEND = FileAccess.MODE_APPEND;
    public static final int MODE_SEQUENTIAL = FileAccess.MODE_SEQUENTIAL;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;

    /** Attribute key of the largest tag ({@code COMM_WORLD.getAttr(MPI.TAG_UB)}). */
    public static final int TAG_UB = 0;
    /** Attribute keys of COMM_WORLD, numbered as in Open MPI's mpi.h: see {@link Comm#getAttr}. */
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    /** The largest tag: 2^30 - 1 (the negative tags and those above are JMCA's own). */
    static final int MAX_TAG = Communicator.MAX_TAG;
    /** Attribute keys of a window ({@code win.getAttr(MPI.WIN_SIZE)}), numbered as in Open MPI's mpi.h. */
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;
    /** The window's flavor (MPI_WIN_CREATE_FLAVOR, a JMCA addition): 1 create, 2 allocate, 4 shared. */
    public static final int WIN_CREATE_FLAVOR = 10;
    /** The window's memory model (MPI_WIN_MODEL, a JMCA addition): always MPI_WIN_UNIFIED, 0. */
    public static final int WIN_MODEL = 11;

    // One-sided synchronization: lock types and assertions, as in mpi.h.
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;

    /** Bytes a buffered send uses in the attached buffer beyond its message. */
    public static final int BSEND_OVERHEAD = BufferedSends.OVERHEAD;

    public static final Datatype BYTE = Datatype.predefined(Type.BYTE);
    public static final Datatype CHAR = Datatype.primitive("MPI.CHAR", 2, Type.Base.CHAR, char[].class, CharBuffer.class);
    public static final Datatype SHORT = Datatype.primitive("MPI.SHORT", 2, Type.Base.SHORT, short[].class,
            ShortBuffer.class);
    public static final Datatype BOOLEAN = Datatype.primitive("MPI.BOOLEAN", 1, Type.Base.BOOLEAN, boolean[].class,
            ByteBuffer.class);
    public static final Datatype INT = Datatype.predefined(Type.INT);
    public static final Datatype LONG = Datatype.predefined(Type.LONG);
    public static final Datatype FLOAT = Datatype.primitive("MPI.FLOAT", 4, Type.Base.FLOAT, float[].class,
            FloatBuffer.class);
    public static final Datatype DOUBLE = Datatype.primitive("MPI.DOUBLE", 8, Type.Base.DOUBLE, double[].class,
            DoubleBuffer.class);

    /** Pairs of ints (value, index) for MINLOC and MAXLOC, two ints per element of an int[]. */
    public static final Datatype INT2 = Datatype.pair("MPI.INT2", 8, Type.Base.INT, 4, int[].class, IntBuffer.class);
    /** (short value, int index), as the C struct: 8 bytes, index at 4. ByteBuffer only. */
    public static final Datatype SHORT_INT = Datatype.pair("MPI.SHORT_INT", 8, Type.Base.SHORT, 4, null,
            ByteBuffer.class);
    /** (long value, int index), as the C struct: 16 bytes, index at 8. ByteBuffer only. */
    public static final Datatype LONG_INT = Datatype.pair("MPI.LONG_INT", 16, Type.Base.LONG, 8, null,
            ByteBuffer.class);
    /** (float value, int index): 8 bytes, index at 4. ByteBuffer only. */
    public static final Datatype FLOAT_INT = Datatype.pair("MPI.FLOAT_INT", 8, Type.Base.FLOAT, 4, null,
            ByteBuffer.class);
    /** (double value, int index), as the C struct: 16 bytes, index at 8. ByteBuffer only. */
    public static final Datatype DOUBLE_INT = Datatype.pair("MPI.DOUBLE_INT", 16, Type.Base.DOUBLE, 8, null,
            ByteBuffer.class);

    /** The structs of the pair types, to read and write pairs in a ByteBuffer ({@link Struct#getData}). */
    public static final ShortInt shortInt = new ShortInt();
    public static final Int2 int2 = new Int2();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();

    /** Complex numbers: (real, imaginary) pairs; reductions take MPI.SUM only. See {@link FloatComplex}. */
    public static final Datatype FLOAT_COMPLEX = Datatype.complex("MPI.FLOAT_COMPLEX", Type.Base.FLOAT);
    public static final Datatype DOUBLE_COMPLEX = Datatype.complex("MPI.DOUBLE_COMPLEX", Type.Base.DOUBLE);

    /** Bytes made by {@link Comm#pack}, to send and {@link Comm#unpack}. */
    public static final Datatype PACKED = Datatype.primitive("MPI.PACKED", 1, Type.Base.BYTE, byte[].class,
            ByteBuffer.class);
    /** No datatype (MPI_DATATYPE_NULL): isNull() is true, and using it is an MPI_ERR_TYPE. */
    public static final Datatype DATATYPE_NULL = Datatype.nullType();

    public static final Op MAX = new Op(PredefinedOp.MAX);
    public static final Op MIN = new Op(PredefinedOp.MIN);
    public static final Op SUM = new Op(PredefinedOp.SUM);
    public static final Op PROD = new Op(PredefinedOp.PROD);
    public static final Op LAND = new Op(PredefinedOp.LAND);
    public static final Op BAND = new Op(PredefinedOp.BAND);
    public static final Op LOR = new Op(PredefinedOp.LOR);
    public static final Op BOR = new Op(PredefinedOp.BOR);
    public static final Op LXOR = new Op(PredefinedOp.LXOR);
    public static final Op BXOR = new Op(PredefinedOp.BXOR);
    /** The smallest value of a pair type and the smallest index holding it. */
    public static final Op MINLOC = new Op(PredefinedOp.MINLOC);
    /** The largest value of a pair type and the smallest index holding it. */
    public static final Op MAXLOC = new Op(PredefinedOp.MAXLOC);
    /** One-sided accumulate: store the origin's value. */
    public static final Op REPLACE = new Op(PredefinedOp.REPLACE);
    /** One-sided getAccumulate and fetchAndOp: only read the target. */
    public static final Op NO_OP = new Op(PredefinedOp.NO_OP);

    /** Print the error and abort the job (the default). */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI.ERRORS_ARE_FATAL", true);
    /** Throw an {@link MPIException}. */
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI.ERRORS_RETURN", false);

    /** No info (MPI_INFO_NULL): where an Info is expected, none is given. */
    public static final Info INFO_NULL = Info.nullInfo();
    /**
     * How the job was started (MPI_INFO_ENV), filled by Init: command, argv, maxprocs, soft, host,
     * arch, wdir, thread_level, and Open MPI's own ompi_num_apps, ompi_first_rank, ompi_np and
     * ompi_positioned_file_dir (the job's session directory).
     */
    public static final Info INFO_ENV = new Info(Map.of());
    /** A request that is no operation: waits and tests on it return at once with an empty status. */
    public static final Request REQUEST_NULL = new Request(null, null, null);
    /** The group of no process. */
    public static final Group GROUP_EMPTY = Group.empty();

    /** Every process of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm("MPI_COMM_WORLD");
    /** This process alone. */
    public static final Intracomm COMM_SELF = new Intracomm("MPI_COMM_SELF");

    private static final int WORLD_CONTEXT = 0;
    private static final int SELF_CONTEXT = 2;

    private static volatile JobRuntime runtime;
    private static volatile boolean finalized;
    private static BufferedSends bufferedSends = new BufferedSends();
    private static int providedThreadLevel = THREAD_SINGLE;
    private static Thread mainThread;

    private MPI() {
    }

    /** Initializes MPI; returns the arguments unchanged. */
    public static String[] Init(String[] args) throws MPIException {
        InitThread(args, THREAD_SINGLE);
        return args;
    }

    /**
     * Initializes MPI with a thread level. JMCA provides every level up to THREAD_MULTIPLE: any
     * number of threads may then call MPI at once (see LockedProgress); below it, calls are not
     * locked at all.
     *
     * @return the level provided
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        if (runtime != null || finalized) {
            throw new MPIException(ERR_OTHER, "MPI.Init was called " + (finalized ? "after MPI.Finalize" : "twice"));
        }
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw new MPIException(ERR_ARG, "thread level " + required + " is not one of MPI.THREAD_SINGLE..MULTIPLE");
        }
        JobRuntime started;
        try {
            started = JobRuntime.start(System.getenv(), required == THREAD_MULTIPLE);
        } catch (McaException | WireUpException e) {
            System.err.println("jmca: MPI.Init failed: " + e.getMessage());
            System.err.flush();
            System.exit(1);
            throw new MPIException(ERR_OTHER, e.getMessage());
        }
        int[] world = new int[started.job.size()];
        for (int r = 0; r < world.length; r++) {
            world[r] = r;
        }
        try {
            COMM_WORLD.bind(started, WORLD_CONTEXT, world);
            COMM_SELF.bind(started, SELF_CONTEXT, new int[] {started.job.rank()});
        } catch (MPIException e) {
            System.err.println("jmca: MPI.Init failed: " + e.getMessage());
            System.err.flush();
            System.exit(1);
            throw e;
        }
        providedThreadLevel = required;
        mainThread = Thread.currentThread();
        INFO_ENV.replaceAll(environment(args, started, providedThreadLevel));
        runtime = started;
        if (started.warmupMillis > 0 && started.job.size() > 1) {
            InitWarmup.Outcome warmup;
            COMM_WORLD.core.port.mute(true);
            try {
                warmup = InitWarmup.run(COMM_WORLD, started.job.rank(), started.job.size(), started.warmupMillis);
            } finally {
                COMM_WORLD.core.port.mute(false);
            }
            if (started.warmupVerbose) {
                System.err.println("jmca: rank " + started.job.rank() + ": " + warmup.describe());
            }
        }
        String parentPort = System.getenv(Spawning.PARENT_PORT);
        if (parentPort != null && !parentPort.isEmpty()) {
            Intercomm.connectToParent(started, parentPort);
        }
        return providedThreadLevel;
    }

    /** Finalizes MPI: waits for every rank, then releases every resource. Collective over COMM_WORLD. */
    public static void Finalize() throws MPIException {
        JobRuntime rt = runtime;
        if (rt == null) {
            throw new MPIException(ERR_OTHER, "MPI.Finalize was called " + (finalized ? "twice" : "before MPI.Init"));
        }
        COMM_WORLD.call("MPI_Finalize", r -> {
            r.flush();
            InternalCollectives.barrier(COMM_WORLD.core);
            r.flush();
            return null;
        });
        finalized = true;
        runtime = null;
        rt.finish();
        Spawning.awaitChildren();
    }

    /**
     * JMCA's counters (asynchronous progress, RGET, notifications), read now, in the manner of
     * MPI_T performance variables; see the README's "Asynchronous progress".
     */
    public static List<PerformanceVariable> performanceVariables() throws MPIException {
        return COMM_WORLD.call("MPI_T_pvar_read", rt -> rt.performanceVariables().stream()
                .map(v -> new PerformanceVariable(v.name(), v.description(), v.read()))
                .toList());
    }

    /** The value of one counter of {@link #performanceVariables()}; an unknown name is an MPI_ERR_ARG. */
    public static long performanceVariable(String name) throws MPIException {
        List<PerformanceVariable> all = performanceVariables();
        return all.stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow(() -> new MPIException(ERR_ARG, "no performance variable " + name + "; this process has "
                        + String.join(", ", all.stream().map(PerformanceVariable::name).toList())))
                .value();
    }

    public static boolean isInitialized() throws MPIException {
        return runtime != null || finalized;
    }

    public static boolean isFinalized() throws MPIException {
        return finalized;
    }

    static boolean finalized() {
        return finalized;
    }

    public static int queryThread() throws MPIException {
        return providedThreadLevel;
    }

    /** Whether this thread is the one that called Init. */
    public static boolean isThreadMain() throws MPIException {
        return Thread.currentThread() == mainThread;
    }

    /** MPI.INFO_ENV's entries: what MPI_INFO_ENV holds in Open MPI, as far as a Java job has them. */
    private static Map<String, String> environment(String[] args, JobRuntime started, int threadLevel) {
        Map<String, String> env = new LinkedHashMap<>();
        // the program's main class: a thread rank's launcher says it, a rank process's java command line names it
        String command = System.getenv(ThreadJob.ENV_COMMAND);
        if (command == null) {
            command = System.getProperty("sun.java.command", "").split(" ", 2)[0];
        }
        env.put("command", command.isEmpty() ? "java" : command);
        env.put("argv", String.join(" ", args == null ? new String[0] : args));
        String size = Integer.toString(started.job.size());
        env.put("maxprocs", size);
        env.put("soft", size);
        env.put("host", started.job.hostname());
        // as uname -m names it, which Open MPI gives
        String arch = System.getProperty("os.arch");
        env.put("arch", arch.equals("amd64") ? "x86_64" : arch);
        env.put("wdir", System.getProperty("user.dir"));
        env.put("thread_level", List.of("MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                "MPI_THREAD_MULTIPLE").get(threadLevel));
        // Open MPI's own keys: the application contexts of a job spawnMultiple started, else one
        String[] apps = System.getProperty(AppContexts.APP_SIZES, size).split(" ");
        StringBuilder firsts = new StringBuilder("0");
        for (int i = 0, first = 0; i < apps.length - 1; i++) {
            first += Integer.parseInt(apps[i]);
            firsts.append(' ').append(first);
        }
        env.put("ompi_num_apps", Integer.toString(apps.length));
        env.put("ompi_first_rank", firsts.toString());
        env.put("ompi_np", String.join(" ", apps));
        if (started.job.sessionDirectory() != null) {
            // the job's private directory, where jmpirun gives one (not under mpirun, srun or alone)
            env.put("ompi_positioned_file_dir", started.job.sessionDirectory().toString());
        }
        return env;
    }

    /** The version of the MPI standard implemented. */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** The library's name and version (MPI_Get_library_version). */
    public static String getLibVersion() {
        String version = MPI.class.getPackage().getImplementationVersion();
        return "JMCA " + (version == null ? "(development build)" : version) + ", MPI " + VERSION + "." + SUBVERSION
                + ", Java " + Runtime.version();
    }

    /** Profiling control (MPI_Pcontrol): JMCA has no profiling layer to tell, so it does nothing. */
    public static void pControl(int level, Object obj) {
    }

    /** Seconds since an arbitrary moment, with nanosecond resolution. */
    public static double wtime() throws MPIException {
        return System.nanoTime() / 1e9;
    }

    public static double wtick() throws MPIException {
        return 1e-9;
    }

    public static String getProcessorName() throws MPIException {
        return COMM_WORLD.call("MPI_Get_processor_name", rt -> rt.job.hostname());
    }

    /** Gives MPI a buffer for buffered sends. */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        COMM_WORLD.call("MPI_Buffer_attach", rt -> {
            bufferedSends.attach(buffer);
            return null;
        });
    }

    /** Waits until every buffered send has left, and takes the buffer back. */
    public static byte[] detachBuffer() throws MPIException {
        return COMM_WORLD.call("MPI_Buffer_detach", rt -> bufferedSends.detach(rt));
    }

    static BufferedSends bufferedSends() {
        return bufferedSends;
    }

    // ---- buffers ----------------------------------------------------------------------------

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /**
     * A direct slice's parent is remembered: a datatype that reaches below the slice's start (a
     * negative stride) then addresses the parent's memory there, as in Open MPI.
     */
    private static <B extends Buffer> B remembered(B slice, Buffer parent) {
        if (slice.isDirect()) {
            SliceOrigins.record(parent);
        }
        return slice;
    }

    /** The part of {@code buf} from element {@code offset} on, sharing its memory. */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice().order(buf.order()), buf);
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return remembered(buf.duplicate().clear().position(offset).slice(), buf);
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ---- ending the job ---------------------------------------------------------------------

    /** ERRORS_ARE_FATAL: prints what went wrong and aborts the job with the error class as status. */
    static void fatal(String message, int errorClass) {
        JobRuntime rt = runtime;
        String who = rt == null ? "jmca: " : "jmca: rank " + rt.job.rank() + ": ";
        System.err.println(who + message);
        System.err.println(who + "the error handler is MPI.ERRORS_ARE_FATAL, so the job is aborted"
                + " (set MPI.ERRORS_RETURN to get an MPIException instead)");
        abortJob(errorClass == 0 ? 1 : errorClass, message);
    }

    /** Tells the launcher to stop the job and exits with {@code code}. */
    static void abortJob(int code, String message) {
        JobRuntime rt = runtime;
        System.out.flush();
        System.err.flush();
        if (rt != null) {
            rt.wireUp.abort(code, message);
        }
        System.exit(code);
    }
}
