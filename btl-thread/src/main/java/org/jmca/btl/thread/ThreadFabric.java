package org.jmca.btl.thread;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jmca.btl.base.SharedRing;

/**
 * What the thread ranks of one job share: each rank's module, and the rings between them, made on
 * first use by whichever end of a pair asks first. It lives in the job's shared map, so the rings'
 * memory ({@link Arena#ofAuto()}) goes when the job and its modules do, even when ranks failed
 * and never finalized.
 */
final class ThreadFabric {
    private final Arena arena = Arena.ofAuto();
    private final AtomicReferenceArray<ThreadBtlModule> modules;
    private final Map<Long, MemorySegment> rings = new HashMap<>();
    private final int ringCapacity;

    ThreadFabric(int size, int ringCapacity) {
        SharedRing.checkCapacity(ringCapacity);
        this.modules = new AtomicReferenceArray<>(size);
        this.ringCapacity = ringCapacity;
    }

    void join(int rank, ThreadBtlModule module) {
        modules.set(rank, module);
    }

    /** The module of {@code rank}, or null if that rank is not a thread of this job. */
    ThreadBtlModule module(int rank) {
        return rank < modules.length() ? modules.get(rank) : null;
    }

    /** The ring from {@code from} to {@code to}: a view of its producer or consumer end, as asked. */
    SharedRing ring(int from, int to) {
        MemorySegment memory;
        synchronized (rings) {
            memory = rings.computeIfAbsent((long) from << 32 | to,
                    key -> arena.allocate(SharedRing.bytesFor(ringCapacity), 128));
        }
        return new SharedRing(memory, 0, ringCapacity);
    }
}
