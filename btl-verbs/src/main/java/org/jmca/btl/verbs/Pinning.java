package org.jmca.btl.verbs;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Pins pages as {@code ibv_reg_mr} does, with {@code mlock(2)}: the software device's registration
 * costs what pinning costs (a walk over every page, under RLIMIT_MEMLOCK), so that the
 * registration cache and the pipelined registration are measured against a real cost.
 */
final class Pinning {
    private static final long PAGE = 4096;
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle MLOCK = lookup("mlock");
    private static final MethodHandle MUNLOCK = lookup("munlock");

    private Pinning() {
    }

    private static MethodHandle lookup(String name) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.captureCallState("errno"));
    }

    static void pin(long address, long length) {
        call(MLOCK, "mlock", address, length);
    }

    static void unpin(long address, long length) {
        call(MUNLOCK, "munlock", address, length);
    }

    private static void call(MethodHandle handle, String name, long address, long length) {
        if (length == 0) {
            return;
        }
        long start = address & -PAGE;
        long end = (address + length + PAGE - 1) & -PAGE;
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int result = (int) handle.invokeExact(state, start, end - start);
            if (result != 0) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new VerbsException("ibv_reg_mr: cannot pin " + length + " bytes: " + name + " failed with errno "
                        + errno + (errno == 12 ? " (ENOMEM: over RLIMIT_MEMLOCK; raise it with ulimit -l)"
                        : errno == 1 ? " (EPERM)" : ""));
            }
        } catch (VerbsException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(name + " failed: " + e, e);
        }
    }
}
