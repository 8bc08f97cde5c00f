package org.jmca.mca.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the calling thread runs: its CPU ({@code sched_setaffinity(2)}), niceness
 * ({@code setpriority(2)}) and scheduling class ({@code sched_setscheduler(2)}), each on the
 * calling thread alone, never on its process: a rank's JVM keeps its JIT compiler and garbage
 * collector threads free to run on any CPU. (Java's own thread priorities do nothing on Linux
 * unless the JVM runs as root with {@code -XX:ThreadPriorityPolicy=1}.)
 *
 * <p>Each call returns what failed, in words, or null: a placement the kernel refuses costs speed,
 * not correctness, so callers report it and go on.
 */
public final class ThreadPlacement {
    private static final int PRIO_PROCESS = 0;
    private static final int SCHED_FIFO = 1;
    /** The kernel's cpu_set_t: 1024 CPUs. */
    private static final int CPU_SET_BYTES = 128;

    private ThreadPlacement() {
    }

    /**
     * The C library's calls, linked at the first placement: linking makes method-handle classes,
     * which a job that places no thread should not pay for at start.
     */
    private static final class Native {
        static final Linker LINKER = Linker.nativeLinker();
        static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        static final long ERRNO = CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
        static final MethodHandle GETTID = find("gettid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        static final MethodHandle SETPRIORITY = find("setpriority", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        static final MethodHandle SETSCHEDULER = find("sched_setscheduler", FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        static final MethodHandle SETAFFINITY = find("sched_setaffinity", FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));

        private static MethodHandle find(String name, FunctionDescriptor descriptor) {
            return LINKER.defaultLookup().find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor,
                    Linker.Option.captureCallState("errno"))).orElse(null);
        }
    }

    /**
     * The CPUs this process may run on, as the kernel's {@code Cpus_allowed_list} says (a
     * launcher's or a batch system's cpuset included); all of {@code availableProcessors} where
     * {@code /proc} does not say.
     */
    public static int[] allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    int[] cpus = CpuList.parse(line.substring(line.indexOf(':') + 1));
                    if (cpus.length > 0) {
                        return cpus;
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // not Linux, or a format we do not know: every CPU the JVM sees
        }
        int[] all = new int[Runtime.getRuntime().availableProcessors()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /** Binds the calling thread to {@code cpu}; what failed, or null. */
    public static String bind(int cpu) {
        return place(0, new int[] {cpu}, false);
    }

    /**
     * Places the calling thread: {@code nice} (-20..19; 0 leaves it), {@code cpus} (the CPUs it may
     * run on; none leaves the affinity, which a new thread inherits from the thread that made it),
     * {@code realtime} (SCHED_FIFO priority 1, so a wake-up preempts any ordinary thread). Returns
     * what failed, or null.
     */
    public static String place(int nice, int[] cpus, boolean realtime) {
        if (nice == 0 && cpus.length == 0 && !realtime) {
            return null;
        }
        for (int cpu : cpus) {
            if (cpu < 0 || cpu >= CPU_SET_BYTES * 8) {
                return "is not bound: CPU " + cpu + (cpu < 0 ? " is negative" : " is beyond " + (CPU_SET_BYTES * 8 - 1));
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            if (Native.GETTID == null || Native.SETPRIORITY == null || Native.SETAFFINITY == null
                    || Native.SETSCHEDULER == null) {
                return "cannot be placed: gettid, setpriority, sched_setscheduler or sched_setaffinity is not in this"
                        + " C library";
            }
            MemorySegment state = arena.allocate(Native.CALL_STATE);
            int tid = (int) Native.GETTID.invokeExact(state);
            if (nice != 0 && (int) Native.SETPRIORITY.invokeExact(state, PRIO_PROCESS, tid, nice) != 0) {
                int errno = errno(state);
                return "keeps the process's niceness: setpriority(" + nice + ") failed with errno " + errno
                        + (errno == 13 || errno == 1 ? " (a negative niceness needs CAP_SYS_NICE)" : "");
            }
            if (realtime) {
                MemorySegment parameters = arena.allocate(ValueLayout.JAVA_INT);
                parameters.set(ValueLayout.JAVA_INT, 0, 1);
                if ((int) Native.SETSCHEDULER.invokeExact(state, tid, SCHED_FIFO, parameters) != 0) {
                    int errno = errno(state);
                    return "is not real-time: sched_setscheduler(SCHED_FIFO) failed with errno " + errno
                            + (errno == 1 ? " (it needs CAP_SYS_NICE)" : "");
                }
            }
            if (cpus.length > 0) {
                MemorySegment mask = arena.allocate(CPU_SET_BYTES, 8);
                for (int cpu : cpus) {
                    mask.set(ValueLayout.JAVA_BYTE, cpu / 8,
                            (byte) (mask.get(ValueLayout.JAVA_BYTE, cpu / 8) | 1 << (cpu % 8)));
                }
                if ((int) Native.SETAFFINITY.invokeExact(state, tid, (long) CPU_SET_BYTES, mask) != 0) {
                    return "is not bound: sched_setaffinity(CPU " + java.util.Arrays.toString(cpus).replaceAll("[\\[\\] ]", "")
                            + ") failed with errno " + errno(state) + " (is that CPU online and allowed?)";
                }
            }
            return null;
        } catch (Throwable e) {
            return "cannot be placed: " + e;
        }
    }

    private static int errno(MemorySegment state) {
        return state.get(ValueLayout.JAVA_INT, Native.ERRNO);
    }
}
