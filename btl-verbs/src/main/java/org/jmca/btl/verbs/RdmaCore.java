package org.jmca.btl.verbs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * rdma-core's {@code libibverbs}, bound through {@code java.lang.foreign}: the library is looked
 * up by its soname, and each exported verb is a downcall handle. What this machine offers is
 * {@link #survey() surveyed} without keeping anything open, so {@code jmca-info} can say why the
 * device is declined.
 */
final class RdmaCore {
    /** The library's soname: the runtime package ({@code libibverbs1}), not the -dev one. */
    static final String LIBRARY = "libibverbs.so.1";

    /** Where the kernel lists its RDMA devices. */
    static final Path SYSFS = Path.of("/sys/class/infiniband");
    /** What ibv_get_device_list sets when the kernel has no RDMA subsystem (no /sys/class/infiniband). */
    private static final int ENOSYS = 38;

    /** What a survey found: the devices' names, or why there are none to use. */
    record Survey(List<String> devices, String whyNone) {
        static Survey none(String why) {
            return new Survey(List.of(), why);
        }
    }

    private RdmaCore() {
    }

    /**
     * Lists the devices, releasing everything before it returns. Where the kernel shows no RDMA
     * device, the library is not loaded at all: every rank probes at start, and loading it and
     * linking its calls cost a job of 2 ranks about 20 ms.
     */
    static Survey survey() {
        if (!kernelShowsDevices()) {
            return Survey.none("no RDMA device: " + SYSFS + " lists none (no HCA, and no RoCE or soft-RoCE link)");
        }
        return surveyLibrary();
    }

    /** What the library itself reports, whatever the kernel shows. */
    static Survey surveyLibrary() {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup library;
            try {
                library = SymbolLookup.libraryLookup(LIBRARY, arena);
            } catch (IllegalArgumentException e) {
                return Survey.none(LIBRARY + " is not installed (apt-get install libibverbs1 ibverbs-providers)");
            }
            return listDevices(library, arena);
        }
    }

    /** Whether the kernel's RDMA class, which ibv_get_device_list reads, has an entry. */
    private static boolean kernelShowsDevices() {
        try (Stream<Path> devices = Files.list(SYSFS)) {
            return devices.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The linker and errno's layout, made when a survey first needs them: making them spins
     * method-handle classes, and every rank's start probes this component.
     */
    private static final class Native {
        static final Linker LINKER = Linker.nativeLinker();
        static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    }

    private static Survey listDevices(SymbolLookup library, Arena arena) {
        Linker linker = Native.LINKER;
        MethodHandle getList = linker.downcallHandle(library.findOrThrow("ibv_get_device_list"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), Linker.Option.captureCallState("errno"));
        MethodHandle freeList = linker.downcallHandle(library.findOrThrow("ibv_free_device_list"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        MethodHandle deviceName = linker.downcallHandle(library.findOrThrow("ibv_get_device_name"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        MemorySegment callState = arena.allocate(Native.CALL_STATE);
        MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
        try {
            MemorySegment list = (MemorySegment) getList.invokeExact(callState, count);
            if (list.equals(MemorySegment.NULL)) {
                int errno = (int) Native.ERRNO.get(callState, 0L);
                return Survey.none(errno == ENOSYS
                        ? "no RDMA device: the kernel offers no RDMA support (ibv_get_device_list: ENOSYS)"
                        : "no RDMA device: ibv_get_device_list failed with errno " + errno);
            }
            int devices = count.get(ValueLayout.JAVA_INT, 0);
            MemorySegment pointers = list.reinterpret(ValueLayout.ADDRESS.byteSize() * devices);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < devices; i++) {
                MemorySegment name = (MemorySegment) deviceName.invokeExact(pointers.getAtIndex(ValueLayout.ADDRESS, i));
                names.add(name.reinterpret(256).getString(0));
            }
            freeList.invokeExact(list);
            return names.isEmpty()
                    ? Survey.none("no RDMA device: ibv_get_device_list found none (no HCA, and no RoCE or"
                    + " soft-RoCE link)")
                    : new Survey(List.copyOf(names), null);
        } catch (Throwable e) {
            throw new IllegalStateException("calling " + LIBRARY + " failed", e);
        }
    }
}
