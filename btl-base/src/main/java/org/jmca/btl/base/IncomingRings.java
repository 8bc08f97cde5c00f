package org.jmca.btl.base;

import java.util.List;

/**
 * The rings a module reads, one per peer that writes to it, each with the handler that hands its
 * records up: polled in turn by the module's progress. btl/sm's rings are in mapped files,
 * btl/thread's in this JVM's native memory.
 */
public final class IncomingRings {
    private SharedRing[] rings = new SharedRing[0];
    private SharedRing.Handler[] handlers = new SharedRing.Handler[0];

    /** The rings to read from now on (replacing any before), with their handlers, in the same order. */
    public void set(List<SharedRing> incoming, List<SharedRing.Handler> upcalls) {
        handlers = upcalls.toArray(SharedRing.Handler[]::new);
        rings = incoming.toArray(SharedRing[]::new);
    }

    /** Hands every published record of every ring to its handler; returns how many. */
    public int poll() {
        int events = 0;
        SharedRing[] polled = rings;
        SharedRing.Handler[] upcalls = handlers;
        for (int i = 0; i < polled.length; i++) {
            events += polled[i].poll(upcalls[i]);
        }
        return events;
    }

    /** True if a record waits in any ring. */
    public boolean hasRecord() {
        for (SharedRing ring : rings) {
            if (ring.hasRecord()) {
                return true;
            }
        }
        return false;
    }

    /** Reads nothing any more. */
    public void clear() {
        set(List.of(), List.of());
    }
}
