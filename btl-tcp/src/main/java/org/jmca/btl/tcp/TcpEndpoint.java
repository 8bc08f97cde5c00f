package org.jmca.btl.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.PeerFailureException;

/**
 * The way to one peer over TCP and the state machine of the connection to it, as Open MPI's
 * {@code btl_tcp_endpoint.c}: the connection is made lazily on the first send, frames are queued
 * until it is up (or while the socket is full), and the bytes read but not yet a whole frame wait
 * here.
 *
 * <pre>
 *   CLOSED --first send--> CONNECTING --peer answers ACCEPTED--> CONNECTED --GOODBYE--> PEER_FINALIZED
 *   CLOSED, CONNECTING --the peer's connection accepted--> CONNECTED
 *   CONNECTING --every address failed, refused, or timed out--> FAILED
 *   CONNECTED --I/O error, corrupt stream, closed without GOODBYE--> FAILED
 * </pre>
 *
 * When two peers connect to each other at once, the connection started by the lower rank wins:
 * the lower rank refuses the other, the higher rank accepts it and drops its own. The endpoint
 * makes, accepts, closes and fails its connection; the module drives the selector (it hands each
 * of this endpoint's keys here while the connection is being made) and the framing, for which it
 * keeps its per-peer state in the package-visible fields below.
 *
 * <p>Threads: the thread that owns progress, as the module's.
 */
final class TcpEndpoint implements BtlEndpoint {
    enum State { CLOSED, CONNECTING, CONNECTED, PEER_FINALIZED, FAILED }

    /** How long to wait before trying an unreachable peer's addresses again. */
    private static final long RETRY_NANOS = 100_000_000;

    /**
     * What the endpoints of one module share: this process's rank and the digest of its job key
     * (its side of a handshake), the selector their sockets are registered with, the settings, and
     * how many of them are connecting, so that progress looks for connect timeouts only then.
     */
    static final class Local {
        final int rank;
        final byte[] keyDigest;
        final Selector selector;
        final TcpSettings settings;
        private int connecting;

        Local(int rank, byte[] keyDigest, Selector selector, TcpSettings settings) {
            this.rank = rank;
            this.keyDigest = keyDigest;
            this.selector = selector;
            this.settings = settings;
        }

        boolean anyConnecting() {
            return connecting > 0;
        }
    }

    private final int rank;
    private final TcpBtlModule module;
    private final Local local;
    final List<InetSocketAddress> addresses;
    final String hostname;

    /** For a peer of a bridged job: the digest its connection shows, and this process's index there; else null and -1. */
    byte[] bridgeDigest;
    int indexThere = -1;

    private State state = State.CLOSED;
    private SocketChannel channel;
    private SelectionKey key;
    /** The connection we started, while it is being made. */
    private SocketChannel outgoing;
    private long connectStartedNanos;
    /** When to try the peer's addresses again after the network said none is reachable now; 0: not waiting. */
    private long retryAtNanos;
    /** Why the last attempt failed, for the error if the connect timeout passes. */
    private String lastFailure = "";

    // ---- the module's framing state for this peer ----
    final SendQueue sendQueue;
    /** Its queue holds small frames sent during a progress turn, to be written when the turn ends. */
    boolean corked;
    /** Bytes read from the connection, from {@link #readStart} up to its position. */
    ByteBuffer readBuffer;
    /** Where the first frame not yet handed over starts in {@link #readBuffer}. */
    int readStart;
    /** The whole of {@link #readBuffer}, for slicing frames out of it. */
    MemorySegment readSegment;

    TcpEndpoint(int rank, TcpBtlModule module, Local local, List<InetSocketAddress> addresses, String hostname,
                SendQueue.ChunkPool chunks) {
        this.rank = rank;
        this.sendQueue = new SendQueue(chunks);
        this.module = module;
        this.local = local;
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

    State state() {
        return state;
    }

    /** The connection this side started, while it is being made; else null. */
    SocketChannel outgoing() {
        return outgoing;
    }

    /** The connection, once made. */
    SocketChannel channel() {
        return channel;
    }

    // ---- connecting ----------------------------------------------------------------------

    /**
     * Starts the connection on the first frame queued for the peer, unless it has no address
     * (a bridged peer that connects to us: what is queued waits for it).
     */
    void connectIfClosed() {
        if (state == State.CLOSED && !addresses.isEmpty()) {
            connect(0);
        }
    }

    /** Connects to the peer's address {@code addressIndex}, non-blocking: the selector tells when it is made. */
    void connect(int addressIndex) {
        InetSocketAddress address = addresses.get(addressIndex);
        if (state != State.CONNECTING) {
            local.connecting++;
            connectStartedNanos = System.nanoTime();
            state = State.CONNECTING;
        }
        SocketChannel attempt = null;
        try {
            attempt = SocketChannel.open();
            attempt.configureBlocking(false);
            attempt.setOption(StandardSocketOptions.TCP_NODELAY, true);
            attempt.connect(address);
            outgoing = attempt;
            attempt.register(local.selector, SelectionKey.OP_CONNECT,
                    new TcpBtlModule.Outgoing(this, attempt, addressIndex, bridgeDigest != null
                            ? TcpWire.handshake(bridgeDigest, indexThere)
                            : TcpWire.handshake(local.keyDigest, local.rank), ByteBuffer.allocate(1)));
        } catch (IOException e) {
            closeQuietly(attempt);
            connectFailed(addressIndex, e);
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // it was not open
            }
        }
    }

    /**
     * The attempt on address {@code addressIndex} failed: the next address; after the last, the
     * peer is unreachable, unless the network itself was (no route, a link down): then the
     * addresses are tried again a little later, until {@code btl_tcp_connect_timeout}, as TCP
     * rides out a link down on a connection already made. A peer that refuses is not waited for:
     * its process is gone.
     */
    private void connectFailed(int addressIndex, IOException failure) {
        if (state == State.CONNECTED) {
            return;
        }
        lastFailure = String.valueOf(failure.getMessage());
        if (addressIndex + 1 < addresses.size()) {
            connect(addressIndex + 1);
            return;
        }
        if (networkUnreachable(failure)) {
            outgoing = null;
            retryAtNanos = System.nanoTime() + RETRY_NANOS;
            return;
        }
        fail();
        throw new PeerFailureException(rank, "btl/tcp: rank " + local.rank + " cannot connect to " + this + ": "
                + failure.getMessage());
    }

    /** ENETUNREACH and EHOSTUNREACH, which Java reports by message for the first. */
    private static boolean networkUnreachable(IOException failure) {
        return failure instanceof java.net.NoRouteToHostException
                || failure.getMessage() != null && (failure.getMessage().contains("Network is unreachable")
                        || failure.getMessage().contains("No route to host"));
    }

    /**
     * The selector's news of a connection this side started: made (then our handshake goes out),
     * or the peer's answer to the handshake (accepted: the connection is up; refused: the peer's
     * own connection wins, or the peer is not of this job).
     */
    void onOutgoing(SelectionKey key, TcpBtlModule.Outgoing out) throws IOException {
        if (key.isConnectable()) {
            try {
                out.channel().finishConnect();
            } catch (IOException e) {
                key.cancel();
                out.channel().close();
                connectFailed(out.addressIndex(), e);
                return;
            }
            while (out.handshake().hasRemaining()) {
                out.channel().write(out.handshake());
            }
            key.interestOps(SelectionKey.OP_READ);
            return;
        }
        int n = out.channel().read(out.reply());
        if (n == 0) {
            return;
        }
        if (n > 0 && out.reply().get(0) == TcpWire.ACCEPTED) {
            attach(out.channel(), key);
            return;
        }
        key.cancel();
        out.channel().close();
        if (state != State.CONNECTING || outgoing != out.channel()) {
            return;
        }
        if (local.rank > rank) {
            // The lower rank refused us because its own connection to us wins; it is on its way.
            outgoing = null;
            return;
        }
        connectFailed(addresses.size() - 1, new IOException("it refused the connection (does it run in another job?)"));
    }

    /**
     * A connection from the peer whose handshake was good: accepted unless ours wins (we are
     * connected already, or connecting with the lower rank); the peer is answered either way.
     */
    void accept(SocketChannel incoming, SelectionKey key) throws IOException {
        boolean keepOurs = state == State.CONNECTED || state == State.CONNECTING && local.rank < rank;
        if (keepOurs) {
            refuse(incoming, key);
            return;
        }
        incoming.write(ByteBuffer.wrap(new byte[] {TcpWire.ACCEPTED}));
        attach(incoming, key);
    }

    /** Answers a connection with REFUSED and closes it. */
    static void refuse(SocketChannel incoming, SelectionKey key) throws IOException {
        incoming.write(ByteBuffer.wrap(new byte[] {TcpWire.REFUSED}));
        key.cancel();
        incoming.close();
    }

    /** The connection is up on {@code connection} (ours or the peer's): the other one goes, and what is queued leaves. */
    private void attach(SocketChannel connection, SelectionKey key) throws IOException {
        if (state == State.CONNECTING) {
            local.connecting--;
        }
        if (outgoing != null && outgoing != connection) {
            outgoing.keyFor(local.selector).cancel();
            outgoing.close();
        }
        outgoing = null;
        connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel = connection;
        this.key = key;
        // Room for a partial frame plus a whole one, so a frame always fits after compaction.
        readBuffer = ByteBuffer.allocateDirect(Math.toIntExact(2 * (local.settings.maxSendSize() + TcpWire.FRAME_HEADER)));
        readSegment = MemorySegment.ofBuffer(readBuffer);
        state = State.CONNECTED;
        key.attach(new TcpBtlModule.Established(this));
        flush();
    }

    /** Fails the peer if its connection is still being made after {@code btl_tcp_connect_timeout}. */
    void checkConnectTimeout(long now) {
        if (state != State.CONNECTING) {
            return;
        }
        if (now - connectStartedNanos > local.settings.connectTimeoutNanos()) {
            fail();
            throw new PeerFailureException(rank, "btl/tcp: rank " + local.rank + " could not connect to " + this
                    + " within " + local.settings.connectTimeoutNanos() / 1_000_000 + " ms (btl_tcp_connect_timeout)"
                    + (lastFailure.isEmpty() ? "" : "; the last attempt: " + lastFailure));
        }
        if (retryAtNanos != 0 && now - retryAtNanos >= 0) {
            retryAtNanos = 0;
            connect(0);
        }
    }

    // ---- sending -------------------------------------------------------------------------

    /** Throws if frames can no longer go to the peer: its connection failed, or it finalized. */
    void checkSendable() {
        switch (state) {
            case FAILED -> throw new PeerFailureException(rank, "btl/tcp: rank " + local.rank
                    + " cannot send to rank " + rank + ": its connection failed earlier");
            case PEER_FINALIZED -> throw new PeerFailureException(rank, "btl/tcp: rank " + local.rank
                    + " cannot send to rank " + rank + ": that rank has already finalized");
            default -> { }
        }
    }

    /** Writes what the queue holds; the selector is asked for writability until it is empty. */
    void flush() {
        boolean done;
        try {
            done = sendQueue.flush(channel);
        } catch (IOException e) {
            throw lost(e.getMessage());
        }
        key.interestOps(done ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    /** The socket took only part of a frame: the selector is to say when it takes more. */
    void awaitWritable() {
        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    // ---- the end -------------------------------------------------------------------------

    /** The peer said GOODBYE: it is finalizing, and its connection will close. */
    void peerFinalized() {
        state = State.PEER_FINALIZED;
    }

    /**
     * The peer closed the connection: expected after its GOODBYE or while this process finalizes;
     * otherwise the peer died, and this fails it.
     */
    void closedByPeer(boolean finalizing) {
        close();
        if (state != State.PEER_FINALIZED && !finalizing) {
            state = State.FAILED;
            throw new PeerFailureException(rank, "btl/tcp: rank " + local.rank + " lost its connection to "
                    + this + ": the peer closed it without finalizing (did the process die?)");
        }
    }

    /** Fails the peer after an I/O error on its connection; returns the exception to throw. */
    PeerFailureException lost(String why) {
        fail();
        return new PeerFailureException(rank, "btl/tcp: rank " + local.rank + " lost its connection to "
                + this + ": " + why);
    }

    /** Nothing more goes to the peer or comes from it: its sockets are closed. */
    void fail() {
        if (state == State.CONNECTING) {
            local.connecting--;
        }
        state = State.FAILED;
        close();
    }

    /** Closes the connection and the one being made, if any, quietly. */
    void close() {
        for (SocketChannel socket : new SocketChannel[] {channel, outgoing}) {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing a socket that failed: nothing more to report.
                }
            }
        }
    }

    @Override
    public String toString() {
        return "rank " + rank + " on " + hostname + " " + addresses;
    }
}
