package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;

/** A task on another host (or any task, with {@code btl_lapi_wire socket}): packets as frames on the TCP wire. */
final class WireLink implements Link {
    private final LapiWire wire;
    private final int task;

    WireLink(LapiWire wire, int task) {
        this.wire = wire;
        this.task = task;
    }

    @Override
    public boolean offer(byte kind, MemorySegment header, MemorySegment payload) {
        return wire.offer(task, kind, header, payload);
    }

    @Override
    public void wake() {
        // the wire's agent at the other end rings the task's bell as it places each packet
    }

    @Override
    public String lost() {
        return wire.isDown(task) ? "its TCP connection broke" : null;
    }
}
