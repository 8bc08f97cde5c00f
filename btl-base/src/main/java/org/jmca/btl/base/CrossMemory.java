package org.jmca.btl.base;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Linux cross-memory attach: {@code process_vm_readv(2)} and {@code process_vm_writev(2)} through
 * the FFM API, to copy another process's memory into ours, or ours into it, in one step (the kernel
 * copies; no shared buffer in between).
 *
 * <p>The kernel allows it between processes of one user unless a security module says no
 * (Yama's ptrace_scope, a seccomp filter, a container without CAP_SYS_PTRACE): {@link #probe()}
 * tries it on this very process at start and says why it cannot be used.
 */
public final class CrossMemory {
    private static final StructLayout IOVEC = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("iov_base"), ValueLayout.JAVA_LONG.withName("iov_len"));
    private static final VarHandle BASE = IOVEC.varHandle(MemoryLayout.PathElement.groupElement("iov_base"));
    private static final VarHandle LENGTH = IOVEC.varHandle(MemoryLayout.PathElement.groupElement("iov_len"));
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle READV = lookup("process_vm_readv");
    private static final MethodHandle WRITEV = lookup("process_vm_writev");

    /** Two iovecs and the errno slot, reused for every call: a read allocates nothing. */
    private final MemorySegment local;
    private final MemorySegment remote;
    private final MemorySegment callState;

    public CrossMemory(Arena arena) {
        this.local = arena.allocate(IOVEC);
        this.remote = arena.allocate(IOVEC);
        this.callState = arena.allocate(CALL_STATE);
    }

    private static MethodHandle lookup(String name) {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find(name).map(symbol -> linker.downcallHandle(symbol,
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.captureCallState("errno"))).orElse(null);
    }

    /** Why single copy cannot be used in this process, or null if it can. */
    public static String probe() {
        if (READV == null) {
            return "process_vm_readv is not in this C library";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(64);
            source.fill((byte) 42);
            MemorySegment target = arena.allocate(64);
            new CrossMemory(arena).read(ProcessHandle.current().pid(), source.address(), target);
            return target.get(ValueLayout.JAVA_BYTE, 63) == 42 ? null : "process_vm_readv returned wrong bytes";
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    /**
     * Copies {@code target.byteSize()} bytes from {@code address} in process {@code pid} into
     * {@code target} (native memory).
     *
     * @throws IllegalStateException with the errno when the kernel refuses
     */
    public void read(long pid, long address, MemorySegment target) {
        transfer(READV, "process_vm_readv", pid, address, target);
    }

    /**
     * Copies the bytes of {@code source} (native memory) to {@code address} in process {@code pid}.
     *
     * @throws IllegalStateException with the errno when the kernel refuses
     */
    public void write(long pid, long address, MemorySegment source) {
        transfer(WRITEV, "process_vm_writev", pid, address, source);
    }

    private void transfer(MethodHandle call, String name, long pid, long address, MemorySegment mine) {
        long done = 0;
        long total = mine.byteSize();
        while (done < total) {
            BASE.set(local, 0L, done == 0 ? mine : mine.asSlice(done));
            LENGTH.set(local, 0L, total - done);
            BASE.set(remote, 0L, MemorySegment.ofAddress(address + done));
            LENGTH.set(remote, 0L, total - done);
            long n;
            try {
                n = (long) call.invokeExact(callState, (int) pid, local, 1L, remote, 1L, 0L);
            } catch (Throwable e) {
                throw new IllegalStateException(name + " failed: " + e, e);
            }
            if (n <= 0) {
                int errno = (int) ERRNO.get(callState, 0L);
                throw new IllegalStateException(name + " with pid " + pid + " failed with errno " + errno
                        + (errno == 1 ? " (EPERM: the kernel forbids access to another process's memory)"
                        : errno == 3 ? " (ESRCH: the process is gone)" : errno == 14 ? " (EFAULT: bad address)" : ""));
            }
            done += n;
        }
    }
}
