package org.jmca.btl.gm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmca.btl.base.SocketWire;
import org.jmca.common.gm.GmException;

/**
 * The emulated GM NIC's wire between hosts, GM's framing on a {@link SocketWire}: one TCP
 * connection from this node to each remote node it sends to, carrying the packets of all of this
 * node's ports in order, each with the port it is for. A packet carries its data (the remote
 * node cannot read this process's memory); at the other end the agent hands it to the port of
 * that number, or answers that the port is not open, and the sender's send fails as GM's does.
 * A connection that breaks fails the sends outstanding to its node.
 *
 * <p>Frames: {@code byte kind, int port, long sendId, long word, payload}; an answer is a frame
 * of kind {@link #ANSWER} back to the sender, naming the port and the send no port took.
 */
final class GmWire implements AutoCloseable {
    private static final long MAGIC = 0x4a4d43412d474d57L;
    private static final int FRAME_HEADER = 21;
    /** A frame that tells the sender no port took its packet {@code sendId}. */
    private static final byte ANSWER = -1;

    private final SocketWire wire;
    private final Map<Integer, EmulatedGmPort> ports = new ConcurrentHashMap<>();

    /**
     * @param nodes the fabric's nodes, 1..{@code nodes}: a connection from another is refused
     */
    GmWire(int node, int nodes, byte[] jobKey) {
        try {
            // A frame carries a whole message or directed send, so it may be as large as the JVM allows.
            wire = new SocketWire("btl/gm node " + node, node, MAGIC, jobKey, 1, nodes, SocketWire.LARGEST_FRAME,
                    this::onFrame, this::nodeDown);
        } catch (IllegalStateException e) {
            throw new GmException("emulated GM NIC: " + e.getMessage());
        }
    }

    /** How remote nodes reach this one. */
    String address() {
        return wire.address();
    }

    /** Node {@code remote} is reached through this wire, at {@code published}. */
    void learn(int remote, String published) {
        try {
            wire.learn(remote, published);
        } catch (IllegalArgumentException e) {
            throw new GmException("emulated GM NIC: " + e.getMessage());
        }
    }

    boolean reaches(int remote) {
        return wire.reaches(remote);
    }

    /** A port of this node opened: packets for its number go to it. */
    void attach(EmulatedGmPort port) {
        ports.put(port.portId(), port);
    }

    void detach(EmulatedGmPort port) {
        ports.remove(port.portId(), port);
    }

    /**
     * Queues a packet of {@code port} for node {@code to}, its payload copied now. The sender's
     * port learns of a failure from {@link EmulatedGmPort#remoteSendFailed}.
     */
    void send(int to, EmulatedGmPort port, byte kind, long sendId, long word, MemorySegment payload) {
        if (!wire.send(to, frame(kind, port.portId(), sendId, word, payload))) {
            port.remoteNodeDown(to);
        }
    }

    private static ByteBuffer frame(byte kind, int port, long sendId, long word, MemorySegment payload) {
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER + (int) payload.byteSize()).order(ByteOrder.nativeOrder());
        frame.put(kind).putInt(port).putLong(sendId).putLong(word);
        MemorySegment.ofArray(frame.array()).asSlice(FRAME_HEADER).copyFrom(payload);
        return frame.position(0);
    }

    /**
     * On the agent of node {@code from}: hands the packet to its port, or answers that none took it.
     * A malformed frame is refused by throwing: the wire then drops the node's connection and
     * reports the node down.
     */
    private void onFrame(int from, ByteBuffer frame) {
        if (frame.limit() < FRAME_HEADER) {
            throw new GmException("a frame of " + frame.limit() + " bytes, shorter than its " + FRAME_HEADER
                    + "-byte header");
        }
        byte kind = frame.get(0);
        int portId = frame.getInt(1);
        long sendId = frame.getLong(5);
        EmulatedGmPort port = ports.get(portId);
        if (kind == ANSWER) {
            if (port != null) {
                port.remoteSendFailed(sendId);
            }
            return;
        }
        byte[] payload = new byte[frame.limit() - FRAME_HEADER];
        frame.get(FRAME_HEADER, payload);
        String wrong = EmulatedGmPort.malformed(kind, frame.getLong(13), MemorySegment.ofArray(payload));
        if (wrong != null) {
            throw new GmException(wrong + " for port " + portId);
        }
        boolean taken = port != null && port.deliverRemote(from, kind, sendId, frame.getLong(13), payload);
        if (!taken && kind != EmulatedGmPort.ACK) {
            wire.send(from, frame(ANSWER, portId, sendId, 0, MemorySegment.NULL));
        }
    }

    /** The remote node is gone: every port fails what it sent there. */
    private void nodeDown(int remote) {
        ports.values().forEach(port -> port.remoteNodeDown(remote));
    }

    /** Closes the sockets and waits for the wire's threads to end. */
    @Override
    public void close() {
        wire.close();
    }
}
