package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The memory a task exposed to the others: every remote put, get and read-modify-write is
 * checked against it before a byte moves, so a wrong address is refused instead of corrupting
 * the task. The same memory may be exposed several times (each exposure is withdrawn once).
 *
 * <p>Threads: exposed and withdrawn by any thread; read by the dispatcher through an immutable
 * snapshot, sorted by address, replaced on each change.
 */
final class Regions {
    private static final MemorySegment[] NONE = new MemorySegment[0];

    private final List<MemorySegment> exposed = new ArrayList<>();
    private volatile MemorySegment[] sorted = NONE;

    synchronized void expose(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("only native memory can be exposed to other tasks, not " + memory);
        }
        exposed.add(memory);
        publish();
    }

    synchronized void withdraw(MemorySegment memory) {
        for (int i = exposed.size() - 1; i >= 0; i--) {
            MemorySegment m = exposed.get(i);
            if (m.address() == memory.address() && m.byteSize() == memory.byteSize()) {
                exposed.remove(i);
                publish();
                return;
            }
        }
        throw new IllegalArgumentException("memory at 0x" + Long.toHexString(memory.address()) + " of "
                + memory.byteSize() + " bytes was not exposed");
    }

    private void publish() {
        MemorySegment[] snapshot = exposed.toArray(NONE);
        Arrays.sort(snapshot, Comparator.comparingLong(MemorySegment::address));
        sorted = snapshot;
    }

    /** The exposed bytes {@code [address, address + length)}, or null if no exposed region holds them all. */
    MemorySegment find(long address, long length) {
        MemorySegment[] regions = sorted;
        int low = 0;
        int high = regions.length - 1;
        int candidate = -1;
        while (low <= high) { // the last region starting at or before the address
            int mid = (low + high) >>> 1;
            if (regions[mid].address() <= address) {
                candidate = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        for (int i = candidate; i >= 0; i--) { // overlapping regions: any that holds the range
            MemorySegment region = regions[i];
            long start = address - region.address();
            if (length >= 0 && length <= region.byteSize() - start) { // no overflow: 0 <= start
                return region.asSlice(start, length);
            }
        }
        return null;
    }
}
