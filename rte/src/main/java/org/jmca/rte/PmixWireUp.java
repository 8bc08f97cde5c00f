package org.jmca.rte;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The wire-up of a process started by a PMIx server: Open MPI's {@code mpirun}, PRRTE's
 * {@code prterun}, Slurm's {@code srun --mpi=pmix}. The process finds the server in its
 * environment ({@code PMIX_NAMESPACE}, {@code PMIX_RANK}) and talks to it through {@code libpmix}
 * by the FFM API: {@code PMIx_Init} for its rank, {@code PMIx_Get} for the job's size and its
 * place on the host, {@code PMIx_Put}/{@code Commit}/{@code Fence}/{@code Get} for the exchange,
 * {@code PMIx_Abort}, and {@code PMIx_Finalize}, which always runs (at close, or in a shutdown
 * hook when the process exits first).
 *
 * <p>PMIx gives no job secret, so rank 0 draws one at start and the others fetch it through the
 * server (a first fence): the job's connections present it as under jmpirun.
 *
 * <p>Layouts, from PMIx 4's {@code pmix_common.h} (checked against it by a test where the header
 * is installed): {@code pmix_proc_t} is 256 bytes of namespace and a 4-byte rank;
 * {@code pmix_value_t} a 2-byte type and its data at 8 (32 bytes); {@code pmix_info_t} a 512-byte
 * key, 4-byte flags at 512 and a value at 520 (552 bytes).
 */
public final class PmixWireUp implements WireUp {
    /** The library, as Debian's libpmix2 installs it; {@code JMCA_PMIX_LIBRARY} names another. */
    static final String LIBRARY = "libpmix.so.2";
    static final long PROC_SIZE = 260;
    static final long PROC_RANK = 256;
    static final long VALUE_SIZE = 32;
    static final long VALUE_DATA = 8;
    static final long INFO_SIZE = 552;
    static final long INFO_VALUE = 520;
    static final short PMIX_BOOL = 1;
    static final short PMIX_STRING = 3;
    static final short PMIX_UINT16 = 13;
    static final short PMIX_UINT32 = 14;
    static final int RANK_WILDCARD = 0xFFFFFFFE;
    static final int SCOPE_GLOBAL = 3;
    static final String JOB_SIZE = "pmix.job.size";
    static final String LOCAL_SIZE = "pmix.local.size";
    static final String LOCAL_RANK = "pmix.lrank";
    static final String HOSTNAME = "pmix.hname";
    static final String COLLECT_DATA = "pmix.collect";
    private static final String KEY_RECORD = "jmca.wireup";
    private static final String KEY_SECRET = "jmca.key";

    private final Arena arena = Arena.ofShared();
    private final Native pmix;
    private final MemorySegment self;
    private final MemorySegment wildcard;
    private final JobInfo job;
    /** Ends the job if this process exits without MPI.Finalize, so that its peers are not left in a fence. */
    private final Thread abortAtExit = new Thread(this::abortUnfinalized, "jmca-pmix-exit");
    private boolean finalized;

    /** The functions of libpmix this wire-up calls. */
    private record Native(MethodHandle init, MethodHandle get, MethodHandle put, MethodHandle commit,
                          MethodHandle fence, MethodHandle abort, MethodHandle finish, MethodHandle valueDestruct,
                          MethodHandle errorString, MethodHandle free) {

        static Native load(String library, Arena arena) {
            Linker linker = Linker.nativeLinker();
            SymbolLookup pmix = SymbolLookup.libraryLookup(library, arena);
            ValueLayout address = ValueLayout.ADDRESS;
            ValueLayout.OfInt i32 = ValueLayout.JAVA_INT;
            ValueLayout.OfLong size = ValueLayout.JAVA_LONG;
            return new Native(
                    linker.downcallHandle(find(pmix, "PMIx_Init"), FunctionDescriptor.of(i32, address, address, size)),
                    linker.downcallHandle(find(pmix, "PMIx_Get"),
                            FunctionDescriptor.of(i32, address, address, address, size, address)),
                    linker.downcallHandle(find(pmix, "PMIx_Put"), FunctionDescriptor.of(i32, i32, address, address)),
                    linker.downcallHandle(find(pmix, "PMIx_Commit"), FunctionDescriptor.of(i32)),
                    linker.downcallHandle(find(pmix, "PMIx_Fence"),
                            FunctionDescriptor.of(i32, address, size, address, size)),
                    linker.downcallHandle(find(pmix, "PMIx_Abort"),
                            FunctionDescriptor.of(i32, i32, address, address, size)),
                    linker.downcallHandle(find(pmix, "PMIx_Finalize"), FunctionDescriptor.of(i32, address, size)),
                    linker.downcallHandle(find(pmix, "PMIx_Value_destruct"), FunctionDescriptor.ofVoid(address)),
                    linker.downcallHandle(find(pmix, "PMIx_Error_string"), FunctionDescriptor.of(address, i32)),
                    linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                            FunctionDescriptor.ofVoid(address)));
        }

        private static MemorySegment find(SymbolLookup lookup, String name) {
            return lookup.find(name).orElseThrow(() -> new WireUpException("libpmix has no " + name));
        }
    }

    /** True if a PMIx server started this process. */
    public static boolean present(Map<String, String> env) {
        return env.containsKey("PMIX_NAMESPACE") && env.containsKey("PMIX_RANK");
    }

    /** The library to load: {@code JMCA_PMIX_LIBRARY}, else {@value #LIBRARY}. */
    static String library(Map<String, String> env) {
        String named = env.get("JMCA_PMIX_LIBRARY");
        return named == null || named.isBlank() ? LIBRARY : named;
    }

    /** Whether the library loads here, in words. */
    static String libraryStatus(Map<String, String> env) {
        String library = library(env);
        try (Arena probe = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(library, probe);
            return library + " loads";
        } catch (IllegalArgumentException e) {
            return "but " + library + " cannot be loaded (apt-get install libpmix2, or name it in JMCA_PMIX_LIBRARY)";
        }
    }

    private PmixWireUp(Map<String, String> env) {
        String library = library(env);
        try {
            this.pmix = Native.load(library, arena);
        } catch (IllegalArgumentException | WireUpException e) {
            throw new WireUpException("this process was started by a PMIx server (PMIX_NAMESPACE="
                    + env.get("PMIX_NAMESPACE") + "), but " + library + " cannot be loaded: " + e.getMessage()
                    + " (apt-get install libpmix2, or name the library in JMCA_PMIX_LIBRARY)", e);
        }
        this.self = arena.allocate(PROC_SIZE, 8);
        check("PMIx_Init", (int) invoke(pmix.init(), self, MemorySegment.NULL, 0L));
        Runtime.getRuntime().addShutdownHook(abortAtExit);
        String namespace = self.getString(0);
        int rank = self.get(ValueLayout.JAVA_INT, PROC_RANK);
        this.wildcard = arena.allocate(PROC_SIZE, 8);
        wildcard.setString(0, namespace);
        wildcard.set(ValueLayout.JAVA_INT, PROC_RANK, RANK_WILDCARD);
        int size = (int) getNumber(wildcard, JOB_SIZE);
        int localSize = (int) getNumber(wildcard, LOCAL_SIZE);
        int localRank = (int) getNumber(self, LOCAL_RANK);
        String hostname = getString(self, HOSTNAME);
        byte[] key = agreeOnKey(rank);
        // Slurm and prterun reuse namespaces (slurm.pmix.1.0 in every new cluster): the key makes the id unique.
        String jobId = "jmca-pmix-" + namespace + "-" + HexFormat.of().formatHex(key, 0, 4);
        this.job = new JobInfo(rank, size, localSize, localRank, jobId, key,
                hostname != null ? hostname : Hostname.local(), null);
    }

    /** Connects to the PMIx server named by the environment. */
    public static PmixWireUp fromEnvironment(Map<String, String> env) {
        return new PmixWireUp(env);
    }

    /** Rank 0 draws the job's secret and publishes it; a first fence lets every rank fetch it. */
    private byte[] agreeOnKey(int rank) {
        if (rank == 0) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            putString(KEY_SECRET, HexFormat.of().formatHex(key));
        }
        fence();
        MemorySegment zero = arena.allocate(PROC_SIZE, 8);
        MemorySegment.copy(self, 0, zero, 0, PROC_RANK);
        zero.set(ValueLayout.JAVA_INT, PROC_RANK, 0);
        String hex = getString(zero, KEY_SECRET);
        if (hex == null) {
            throw new WireUpException("PMIx: rank 0's job key did not arrive through the server");
        }
        return HexFormat.of().parseHex(hex);
    }

    @Override
    public JobInfo job() {
        return job;
    }

    /** Every rank's record, through PMIx_Put of this rank's (one string), a collecting fence, and PMIx_Get of the others'. */
    @Override
    public List<PeerRecord> exchange(Map<String, String> values) {
        StringBuilder record = new StringBuilder(job.hostname()).append('\n');
        values.forEach((k, v) -> record.append(escape(k)).append('=').append(escape(v)).append('\n'));
        putString(KEY_RECORD, record.toString());
        fence();
        List<PeerRecord> records = new ArrayList<>();
        MemorySegment peer = arena.allocate(PROC_SIZE, 8);
        MemorySegment.copy(self, 0, peer, 0, PROC_RANK);
        for (int r = 0; r < job.size(); r++) {
            peer.set(ValueLayout.JAVA_INT, PROC_RANK, r);
            String text = getString(peer, KEY_RECORD);
            if (text == null) {
                throw new WireUpException("PMIx: rank " + r + "'s wire-up record did not arrive through the server");
            }
            records.add(parse(r, text));
        }
        return records;
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("=", "\\e");
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                out.append(next == 'n' ? '\n' : next == 'e' ? '=' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Rank {@code rank}'s record as the PMIx server gave it: its host, then a "key=value" per line. */
    static PeerRecord parse(int rank, String text) {
        String[] lines = text.split("\n");
        if (lines.length == 0 || lines[0].isEmpty()) {
            throw new WireUpException("PMIx: rank " + rank + "'s wire-up record names no host: it is not a JMCA record");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int eq = lines[i].indexOf('=');
            if (eq < 0) {
                throw new WireUpException("PMIx: rank " + rank + "'s wire-up record has a line without '=' (line "
                        + (i + 1) + "): it is not a JMCA record");
            }
            values.put(unescape(lines[i].substring(0, eq)), unescape(lines[i].substring(eq + 1)));
        }
        return new PeerRecord(rank, lines[0], values);
    }

    @Override
    public void finalized() {
        // PMIx_Finalize at close says it
    }

    @Override
    public synchronized void abort(int code, String message) {
        finalized = true; // the exit that follows needs no second abort
        // The PMIx server ends the job with the code, but need not print why: say it here.
        System.err.println("jmca: rank " + self.get(ValueLayout.JAVA_INT, PROC_RANK) + " aborts the job with error code " + code + ": " + message);
        System.err.flush();
        try (Arena call = Arena.ofConfined()) {
            invoke(pmix.abort(), code, call.allocateFrom(message), MemorySegment.NULL, 0L);
        }
    }

    @Override
    public synchronized void close() {
        if (finalized) {
            return;
        }
        finalized = true;
        invoke(pmix.finish(), MemorySegment.NULL, 0L);
        try {
            Runtime.getRuntime().removeShutdownHook(abortAtExit);
        } catch (IllegalStateException e) {
            // exiting: the hook is running and finds the job finalized
        }
    }

    /**
     * The JVM exits after MPI.Init without MPI.Finalize (an exception, System.exit): the others
     * would wait for this rank in their next fence for ever, so the job is aborted, as Open MPI's
     * launchers do with a rank that exits without finalizing.
     */
    private synchronized void abortUnfinalized() {
        if (!finalized) {
            abort(1, "it exited without calling MPI.Finalize");
        }
    }

    // ---- PMIx calls ---------------------------------------------------------------------------

    private void fence() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment info = call.allocate(INFO_SIZE, 8);
            info.setString(0, COLLECT_DATA);
            info.set(ValueLayout.JAVA_SHORT, INFO_VALUE, PMIX_BOOL);
            info.set(ValueLayout.JAVA_BOOLEAN, INFO_VALUE + VALUE_DATA, true);
            check("PMIx_Fence", (int) invoke(pmix.fence(), MemorySegment.NULL, 0L, info, 1L));
        }
    }

    private void putString(String key, String value) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment v = call.allocate(VALUE_SIZE, 8);
            v.set(ValueLayout.JAVA_SHORT, 0, PMIX_STRING);
            v.set(ValueLayout.ADDRESS, VALUE_DATA, call.allocateFrom(value, StandardCharsets.UTF_8));
            check("PMIx_Put " + key, (int) invoke(pmix.put(), SCOPE_GLOBAL, call.allocateFrom(key), v));
        }
        check("PMIx_Commit", (int) invoke(pmix.commit()));
    }

    /** The value of {@code key} for {@code proc}, or null if the server has none. */
    private <T> T get(MemorySegment proc, String key, Function<MemorySegment, T> read) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            int status = (int) invoke(pmix.get(), proc, call.allocateFrom(key), MemorySegment.NULL, 0L, out);
            if (status != 0) {
                return null;
            }
            MemorySegment value = out.get(ValueLayout.ADDRESS, 0).reinterpret(VALUE_SIZE);
            try {
                return read.apply(value);
            } finally {
                invoke(pmix.valueDestruct(), value);
                invoke(pmix.free(), value);
            }
        }
    }

    private String getString(MemorySegment proc, String key) {
        return get(proc, key, v -> v.get(ValueLayout.JAVA_SHORT, 0) == PMIX_STRING
                ? v.get(ValueLayout.ADDRESS, VALUE_DATA).reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8)
                : null);
    }

    private long getNumber(MemorySegment proc, String key) {
        Long n = get(proc, key, v -> switch (v.get(ValueLayout.JAVA_SHORT, 0)) {
            case PMIX_UINT32 -> Integer.toUnsignedLong(v.get(ValueLayout.JAVA_INT, VALUE_DATA));
            case PMIX_UINT16 -> (long) Short.toUnsignedInt(v.get(ValueLayout.JAVA_SHORT, VALUE_DATA));
            default -> null;
        });
        if (n == null) {
            throw new WireUpException("PMIx: the server gave no " + key + " for " + (proc == wildcard ? "the job"
                    : "rank " + proc.get(ValueLayout.JAVA_INT, PROC_RANK)));
        }
        return n;
    }

    private void check(String call, int status) {
        if (status != 0) {
            MemorySegment text = (MemorySegment) invoke(pmix.errorString(), status);
            throw new WireUpException(call + " failed: " + text.reinterpret(256).getString(0) + " (" + status + ")");
        }
    }

    private static Object invoke(MethodHandle handle, Object... args) {
        try {
            return handle.invokeWithArguments(args);
        } catch (Throwable e) {
            throw new WireUpException("a call into libpmix failed: " + e, e);
        }
    }
}
