package org.jmca.btl.tcp;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.List;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;

/**
 * The connection state to one peer: a connection made lazily on the first send, frames queued
 * until it is up (or while the socket is full), and the bytes read but not yet a whole frame.
 */
final class TcpEndpoint implements BtlEndpoint {
    enum State { CLOSED, CONNECTING, CONNECTED, PEER_FINALIZED, FAILED }

    private final int rank;
    private final TcpBtlModule module;
    final List<InetSocketAddress> addresses;
    final String hostname;

    /** For a peer of a bridged job: the digest its connection shows, and this process's index there; else null and -1. */
    byte[] bridgeDigest;
    int indexThere = -1;

    State state = State.CLOSED;
    SocketChannel channel;
    SelectionKey key;
    /** The connection we started, while it is being made. */
    SocketChannel outgoing;
    long connectStartedNanos;
    final SendQueue sendQueue;
    /** Its queue holds small frames sent during a progress turn, to be written when the turn ends. */
    boolean corked;
    /** Bytes read from the connection, from {@link #readStart} up to its position. */
    ByteBuffer readBuffer;
    /** Where the first frame not yet handed over starts in {@link #readBuffer}. */
    int readStart;
    /** The whole of {@link #readBuffer}, for slicing frames out of it. */
    MemorySegment readSegment;

    TcpEndpoint(int rank, TcpBtlModule module, List<InetSocketAddress> addresses, String hostname,
                SendQueue.ChunkPool chunks) {
        this.rank = rank;
        this.sendQueue = new SendQueue(chunks);
        this.module = module;
        this.addresses = addresses;
        this.hostname = hostname;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public BtlModule module() {
        return module;
    }

    @Override
    public String toString() {
        return "rank " + rank + " on " + hostname + " " + addresses;
    }
}
