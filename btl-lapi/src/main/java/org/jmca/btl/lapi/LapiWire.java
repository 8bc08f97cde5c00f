package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.jmca.btl.base.SocketWire;
import org.jmca.common.lapi.LapiException;

/**
 * The emulated switch between hosts: packets as frames ({@code byte kind}, the header, the
 * payload) on a {@link SocketWire}. At the receiving task the wire's agent for each sender
 * writes that sender's packets, in order, into the sender's ring of the task's own file (it is
 * that ring's only producer) and rings the task's bell, so the dispatcher sees remote packets as
 * it sees local ones. A full ring holds the agent, and so the TCP connection: flow control end to
 * end. A sender keeps at most {@link #maxQueuedBytes} queued for one task.
 */
final class LapiWire implements AutoCloseable {
    private static final long MAGIC = 0x4a4d43412d4c4150L;

    private final SocketWire wire;
    private final long maxQueuedBytes;
    private final Set<Integer> down = ConcurrentHashMap.newKeySet();
    private volatile TaskFile own;
    private volatile SharedRing[] inbound;
    private volatile FutexDoorbell bell;
    private volatile boolean closed;

    /**
     * @param tasks        the job's tasks: a connection from another id is refused
     * @param ringCapacity the capacity of the rings packets go into: a larger frame is refused
     */
    LapiWire(int task, int tasks, byte[] jobKey, long maxQueuedBytes, int ringCapacity) {
        this.maxQueuedBytes = maxQueuedBytes;
        this.wire = new SocketWire("btl/lapi task " + task, task, MAGIC, jobKey, 0, tasks - 1,
                1 + SharedRing.maxRecord(ringCapacity), this::onFrame, down::add);
    }

    /** Where arriving packets go: the rings of this task's own file. */
    void deliverInto(TaskFile file) {
        SharedRing[] rings = new SharedRing[file.tasks];
        for (int sender = 0; sender < rings.length; sender++) {
            rings[sender] = file.ring(sender);
        }
        this.bell = file.sendersDoorbell();
        this.inbound = rings;
        this.own = file;
    }

    String address() {
        return wire.address();
    }

    void learn(int task, String published) {
        wire.learn(task, published);
    }

    boolean isDown(int task) {
        return down.contains(task);
    }

    /** Queues one packet for {@code task}; false while too much is queued for it already. */
    boolean offer(int task, byte kind, MemorySegment header, MemorySegment payload) {
        if (wire.queuedBytes(task) > maxQueuedBytes) {
            return false;
        }
        int headerLength = (int) header.byteSize();
        ByteBuffer frame = ByteBuffer.allocate(1 + headerLength + (int) payload.byteSize()).order(ByteOrder.nativeOrder());
        frame.put(kind);
        MemorySegment bytes = MemorySegment.ofArray(frame.array());
        bytes.asSlice(1, headerLength).copyFrom(header);
        bytes.asSlice(1 + headerLength).copyFrom(payload);
        if (!wire.send(task, frame.position(0))) {
            down.add(task);
        }
        return true;
    }

    /**
     * On the agent of {@code from}: into its ring here, waiting while the ring is full. A frame no
     * task sends (too short, of no kind) is refused by throwing: the wire drops the connection and
     * reports the task down. The wire refuses frames too large for the ring before they arrive.
     */
    private void onFrame(int from, ByteBuffer frame) {
        SharedRing[] rings = inbound;
        if (rings == null || from < 0 || from >= rings.length) {
            return;
        }
        if (frame.limit() < 1 + Packet.HEADER) {
            throw new LapiException("a frame of " + frame.limit() + " bytes, shorter than a kind and the "
                    + Packet.HEADER + "-byte packet header");
        }
        byte kind = frame.get(0);
        if (!Packet.known(kind)) {
            throw new LapiException("a packet of unknown kind " + kind);
        }
        MemorySegment bytes = MemorySegment.ofBuffer(frame);
        MemorySegment header = bytes.asSlice(1, Packet.HEADER);
        MemorySegment payload = bytes.asSlice(1 + Packet.HEADER);
        while (!rings[from].offer(kind, header, payload)) {
            if (closed || !own.isOpen()) {
                return;
            }
            LockSupport.parkNanos(10_000);
        }
        bell.ringOnceIfArmed();
    }

    /** Stops the wire's threads; after it, nothing more is written into the task's rings. */
    @Override
    public void close() {
        closed = true;
        wire.close();
    }
}
