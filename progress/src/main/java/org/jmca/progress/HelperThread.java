package org.jmca.progress;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

/**
 * Makes the helper thread of asynchronous progress: a daemon platform thread (it sleeps in the
 * kernel, which a virtual thread would do pinned to its carrier), with its own niceness and CPU
 * when asked. Java's thread priorities do nothing on Linux unless the JVM runs as root with
 * {@code -XX:ThreadPriorityPolicy=1}, so the niceness is set with {@code setpriority(2)} and the
 * CPU with {@code sched_setaffinity(2)}, both on the calling thread, through the FFM API.
 */
final class HelperThread {
    private static final int PRIO_PROCESS = 0;
    private static final int CPU_SET_BYTES = 128;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final long ERRNO = CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle GETTID = find("gettid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle SETPRIORITY = find("setpriority", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle SETSCHEDULER = find("sched_setscheduler", FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    private static final int SCHED_FIFO = 1;
    private static final MethodHandle SETAFFINITY = find("sched_setaffinity", FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));

    /**
     * Where the helper runs.
     *
     * @param nice     its niceness, -20..19; 0 keeps the process's
     * @param cpu      the CPU it is bound to; -1 keeps the process's affinity
     * @param realtime run under SCHED_FIFO (priority 1), so that a wake-up preempts any ordinary thread
     */
    record Placement(int nice, int cpu, boolean realtime) {
        static final Placement INHERITED = new Placement(0, -1, false);
    }

    private HelperThread() {
    }

    private static MethodHandle find(String name, FunctionDescriptor descriptor) {
        return LINKER.defaultLookup().find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor,
                Linker.Option.captureCallState("errno"))).orElse(null);
    }

    /**
     * A started daemon thread that runs {@code body} once placed (a placement the kernel refuses
     * is reported on standard error, and the thread runs where the process does).
     */
    static Thread start(String name, Placement placement, Runnable body) {
        Thread thread = new Thread(() -> {
            String failure = place(placement);
            if (failure != null) {
                System.err.println("jmca: warning: the asynchronous progress thread " + failure);
            }
            body.run();
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits up to 5 seconds for a helper that was told to stop. */
    static void join(Thread helper) {
        try {
            helper.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Places the calling thread; returns what failed, or null. */
    static String place(Placement placement) {
        if (placement.equals(Placement.INHERITED)) {
            return null;
        }
        if (GETTID == null || SETPRIORITY == null || SETAFFINITY == null || SETSCHEDULER == null) {
            return "cannot be placed: gettid, setpriority, sched_setscheduler or sched_setaffinity is not in this C"
                    + " library";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int tid = (int) GETTID.invokeExact(state);
            if (placement.nice() != 0 && (int) SETPRIORITY.invokeExact(state, PRIO_PROCESS, tid, placement.nice()) != 0) {
                int errno = state.get(ValueLayout.JAVA_INT, ERRNO);
                return "keeps the process's niceness: setpriority(" + placement.nice() + ") failed with errno " + errno
                        + (errno == 13 || errno == 1 ? " (a negative niceness needs CAP_SYS_NICE)" : "");
            }
            if (placement.realtime()) {
                MemorySegment parameters = arena.allocate(ValueLayout.JAVA_INT);
                parameters.set(ValueLayout.JAVA_INT, 0, 1);
                if ((int) SETSCHEDULER.invokeExact(state, tid, SCHED_FIFO, parameters) != 0) {
                    int errno = state.get(ValueLayout.JAVA_INT, ERRNO);
                    return "is not real-time: sched_setscheduler(SCHED_FIFO) failed with errno " + errno
                            + (errno == 1 ? " (it needs CAP_SYS_NICE)" : "");
                }
            }
            if (placement.cpu() >= 0) {
                if (placement.cpu() >= CPU_SET_BYTES * 8) {
                    return "is not bound: CPU " + placement.cpu() + " is beyond " + (CPU_SET_BYTES * 8 - 1);
                }
                MemorySegment mask = arena.allocate(CPU_SET_BYTES, 8);
                mask.set(ValueLayout.JAVA_BYTE, placement.cpu() / 8, (byte) (1 << (placement.cpu() % 8)));
                if ((int) SETAFFINITY.invokeExact(state, tid, (long) CPU_SET_BYTES, mask) != 0) {
                    return "is not bound: sched_setaffinity(CPU " + placement.cpu() + ") failed with errno "
                            + state.get(ValueLayout.JAVA_INT, ERRNO) + " (is that CPU online and allowed?)";
                }
            }
            return null;
        } catch (Throwable e) {
            return "cannot be placed: " + e;
        }
    }
}
