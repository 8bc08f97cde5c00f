package org.jmca.btl.base;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Linux futexes on a word of a shared mapping, through {@code syscall(2)} and the FFM API: one
 * process sleeps in the kernel until another changes the word and wakes it. The operations are
 * the shared (not {@code _PRIVATE}) ones, as the word lives in a file mapped by several processes.
 */
public final class Futex {
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;
    private static final long SYS_FUTEX = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> 202;
        case "aarch64" -> 98;
        default -> -1;
    };

    /** A {@code struct timespec} for this futex's waits: used by the one thread that waits. */
    private final MemorySegment timeout;

    public Futex(Arena arena) {
        this.timeout = arena.allocate(16, 8);
    }

    /**
     * syscall(2), linked when a futex is first used (asynchronous progress): linking spins
     * method-handle classes, which a job that never sleeps on a futex should not pay for at start.
     */
    private static final class Syscall {
        static final MethodHandle HANDLE = lookup();
    }

    private static MethodHandle lookup() {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find("syscall").map(symbol -> linker.downcallHandle(symbol,
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                Linker.Option.firstVariadicArg(1))).orElse(null);
    }

    /** Why futexes cannot be used here, or null if they can: a wake on a word of {@code memory} is tried. */
    public static String probe(MemorySegment word) {
        if (SYS_FUTEX < 0) {
            return "futex system call number unknown on " + System.getProperty("os.arch");
        }
        if (Syscall.HANDLE == null) {
            return "syscall is not in this C library";
        }
        return call(word, FUTEX_WAKE, 1, MemorySegment.NULL) >= 0 ? null : "futex(FUTEX_WAKE) failed";
    }

    /** Sleeps while the int at {@code word} is {@code expected}, for at most {@code nanos}. */
    public void await(MemorySegment word, int expected, long nanos) {
        timeout.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
        timeout.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
        call(word, FUTEX_WAIT, expected, timeout);
    }

    /** Wakes one thread sleeping on {@code word}. */
    public static void wake(MemorySegment word) {
        call(word, FUTEX_WAKE, 1, MemorySegment.NULL);
    }

    private static long call(MemorySegment word, long op, long value, MemorySegment timeout) {
        try {
            return (long) Syscall.HANDLE.invokeExact(SYS_FUTEX, word, op, value, timeout);
        } catch (Throwable e) {
            throw new IllegalStateException("futex system call failed: " + e, e);
        }
    }
}
