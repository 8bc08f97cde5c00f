package org.jmca.btl.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jmca.btl.tcp.TcpEndpoint.State;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;

/**
 * btl/tcp's module: one listening socket per selected address, one connection per peer pair,
 * all non-blocking on one selector that {@link #progress()} polls (no thread of its own).
 *
 * <p>Connections are made lazily, on the first send to a peer. When two peers connect to each
 * other at once, the connection started by the lower rank wins: the lower rank refuses the
 * other, the higher rank accepts it and drops its own. A connection must present the job key
 * ({@link TcpWire}); one that does not is logged and closed.
 */
final class TcpBtlModule implements BtlModule {
    static final String ADDRESSES_KEY = "tcp.addresses";

    private sealed interface Attachment permits Listener, Incoming, Outgoing, Established { }

    private record Listener(ServerSocketChannel server) implements Attachment { }

    private record Incoming(SocketChannel channel, ByteBuffer handshake) implements Attachment { }

    private record Outgoing(TcpEndpoint endpoint, SocketChannel channel, int addressIndex, ByteBuffer handshake,
                            ByteBuffer reply) implements Attachment { }

    private record Established(TcpEndpoint endpoint) implements Attachment { }

    private final int rank;
    private final String hostname;
    private final byte[] keyDigest;
    private final TcpSettings settings;
    private final BtlProperties properties;
    private final Selector selector;
    private final List<InetSocketAddress> listening = new ArrayList<>();
    private final ByteBuffer staging;
    private final MemorySegment stagingSegment;
    private final Consumer<String> log;
    private int jobSize;
    private TcpEndpoint[] endpoints = new TcpEndpoint[0];
    private BtlReceiver receiver;
    private int connecting;
    private boolean finalizing;

    TcpBtlModule(int rank, String hostname, byte[] jobKey, List<TcpInterfaces.Address> addresses,
                 TcpSettings settings, Consumer<String> log) {
        this.rank = rank;
        this.hostname = hostname;
        this.keyDigest = TcpWire.keyDigest(jobKey);
        this.settings = settings;
        this.log = log;
        this.properties = new BtlProperties(settings.exclusivity(), 50_000, 10_000, settings.eagerLimit(),
                settings.maxSendSize(), EnumSet.of(BtlProperties.Flag.SEND));
        this.staging = ByteBuffer.allocateDirect(Math.toIntExact(settings.maxSendSize() + TcpWire.FRAME_HEADER));
        this.stagingSegment = MemorySegment.ofBuffer(staging);
        try {
            this.selector = Selector.open();
            for (TcpInterfaces.Address address : addresses) {
                ServerSocketChannel server = ServerSocketChannel.open();
                server.bind(new InetSocketAddress(address.address(), 0), 64);
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT, new Listener(server));
                listening.add((InetSocketAddress) server.getLocalAddress());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("btl/tcp: cannot listen on " + TcpInterfaces.describe(addresses), e);
        }
    }

    @Override
    public String componentName() {
        return "tcp";
    }

    @Override
    public BtlProperties properties() {
        return properties;
    }

    @Override
    public Map<String, String> localAddress() {
        return Map.of(ADDRESSES_KEY, String.join(",",
                listening.stream().map(a -> a.getAddress().getHostAddress() + ":" + a.getPort()).toList()));
    }

    /** The addresses this module listens on. */
    List<InetSocketAddress> listening() {
        return List.copyOf(listening);
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        jobSize = peers.size();
        endpoints = new TcpEndpoint[jobSize];
        List<BtlEndpoint> result = new ArrayList<>();
        for (Peer peer : peers) {
            String published = peer.addresses().get(ADDRESSES_KEY);
            List<InetSocketAddress> addresses = published == null || published.isEmpty()
                    ? List.of() : reachable(parse(published), peer.hostname().equals(hostname));
            if (peer.rank() == rank || addresses.isEmpty()) {
                result.add(null);
                continue;
            }
            TcpEndpoint endpoint = new TcpEndpoint(peer.rank(), this, addresses, peer.hostname());
            endpoints[peer.rank()] = endpoint;
            result.add(endpoint);
        }
        return result;
    }

    /** A peer on this host is tried over loopback first; a remote peer never over loopback. */
    private static List<InetSocketAddress> reachable(List<InetSocketAddress> addresses, boolean sameHost) {
        return addresses.stream()
                .filter(a -> sameHost || !a.getAddress().isLoopbackAddress())
                .sorted(Comparator.comparing((InetSocketAddress a) -> !a.getAddress().isLoopbackAddress()))
                .toList();
    }

    private static List<InetSocketAddress> parse(String published) {
        return Arrays.stream(published.split(",")).map(hostPort -> {
            int colon = hostPort.lastIndexOf(':');
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        }).toList();
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    // ---- sending -------------------------------------------------------------------------

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        TcpEndpoint endpoint = (TcpEndpoint) to;
        long length = header.byteSize() + payload.byteSize();
        if (length > settings.maxSendSize()) {
            throw new IllegalArgumentException("fragment of " + length + " bytes exceeds btl_tcp_max_send_size="
                    + settings.maxSendSize());
        }
        switch (endpoint.state) {
            case FAILED -> throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank
                    + " cannot send to rank " + endpoint.rank() + ": its connection failed earlier");
            case PEER_FINALIZED -> throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank
                    + " cannot send to rank " + endpoint.rank() + ": that rank has already finalized");
            default -> { }
        }
        if (endpoint.state == State.CONNECTED && endpoint.sendQueue.isEmpty()) {
            ByteBuffer frame = frame(tag, header, payload);
            write(endpoint, frame);
            if (frame.hasRemaining()) {
                queue(endpoint, copyOf(frame));
                endpoint.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            }
            return true;
        }
        if (endpoint.queuedBytes + length > settings.maxQueuedBytes() && !endpoint.sendQueue.isEmpty()) {
            return false;
        }
        queue(endpoint, copyOf(frame(tag, header, payload)));
        if (endpoint.state == State.CLOSED) {
            connect(endpoint, 0);
        }
        return true;
    }

    /** Writes a frame into the staging buffer and returns it ready to write. */
    private ByteBuffer frame(byte tag, MemorySegment header, MemorySegment payload) {
        long length = header.byteSize() + payload.byteSize();
        staging.clear();
        staging.putInt(0, (int) (1 + length)).put(4, tag);
        MemorySegment.copy(header, 0, stagingSegment, TcpWire.FRAME_HEADER, header.byteSize());
        MemorySegment.copy(payload, 0, stagingSegment, TcpWire.FRAME_HEADER + header.byteSize(), payload.byteSize());
        return staging.limit((int) (TcpWire.FRAME_HEADER + length));
    }

    private static ByteBuffer copyOf(ByteBuffer frame) {
        ByteBuffer copy = ByteBuffer.allocate(frame.remaining());
        copy.put(frame).flip();
        return copy;
    }

    private static void queue(TcpEndpoint endpoint, ByteBuffer frame) {
        endpoint.sendQueue.addLast(frame);
        endpoint.queuedBytes += frame.remaining();
    }

    private void write(TcpEndpoint endpoint, ByteBuffer frame) {
        try {
            endpoint.channel.write(frame);
        } catch (IOException e) {
            throw lost(endpoint, e.getMessage());
        }
    }

    private void flush(TcpEndpoint endpoint) {
        while (!endpoint.sendQueue.isEmpty()) {
            ByteBuffer frame = endpoint.sendQueue.peekFirst();
            int before = frame.remaining();
            write(endpoint, frame);
            endpoint.queuedBytes -= before - frame.remaining();
            if (frame.hasRemaining()) {
                endpoint.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                return;
            }
            endpoint.sendQueue.pollFirst();
        }
        endpoint.key.interestOps(SelectionKey.OP_READ);
    }

    // ---- connecting ----------------------------------------------------------------------

    private void connect(TcpEndpoint endpoint, int addressIndex) {
        InetSocketAddress address = endpoint.addresses.get(addressIndex);
        try {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(address);
            if (endpoint.state != State.CONNECTING) {
                connecting++;
                endpoint.connectStartedNanos = System.nanoTime();
            }
            endpoint.state = State.CONNECTING;
            endpoint.outgoing = channel;
            channel.register(selector, SelectionKey.OP_CONNECT,
                    new Outgoing(endpoint, channel, addressIndex, TcpWire.handshake(keyDigest, rank),
                            ByteBuffer.allocate(1)));
        } catch (IOException e) {
            connectFailed(endpoint, addressIndex, e.getMessage());
        }
    }

    private void connectFailed(TcpEndpoint endpoint, int addressIndex, String why) {
        if (endpoint.state == State.CONNECTED) {
            return;
        }
        if (addressIndex + 1 < endpoint.addresses.size()) {
            connect(endpoint, addressIndex + 1);
            return;
        }
        fail(endpoint);
        throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " cannot connect to " + endpoint
                + ": " + why);
    }

    private void onOutgoing(SelectionKey key, Outgoing out) throws IOException {
        TcpEndpoint endpoint = out.endpoint();
        if (key.isConnectable()) {
            try {
                out.channel().finishConnect();
            } catch (IOException e) {
                key.cancel();
                out.channel().close();
                connectFailed(endpoint, out.addressIndex(), e.getMessage());
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
            attach(endpoint, out.channel(), key);
            return;
        }
        key.cancel();
        out.channel().close();
        if (endpoint.state != State.CONNECTING || endpoint.outgoing != out.channel()) {
            return;
        }
        if (rank > endpoint.rank()) {
            // The lower rank refused us because its own connection to us wins; it is on its way.
            endpoint.outgoing = null;
            return;
        }
        connectFailed(endpoint, endpoint.addresses.size() - 1,
                "it refused the connection (does it run in another job?)");
    }

    private void onIncoming(SelectionKey key, Incoming in) throws IOException {
        if (in.channel().read(in.handshake()) < 0) {
            key.cancel();
            in.channel().close();
            return;
        }
        if (in.handshake().hasRemaining()) {
            return;
        }
        String remote = String.valueOf(in.channel().getRemoteAddress());
        String refusal = TcpWire.checkHandshake(in.handshake(), keyDigest, jobSize);
        if (refusal != null) {
            log.accept("btl/tcp: rank " + rank + " refused a connection from " + remote + ": " + refusal);
            key.cancel();
            in.channel().close();
            return;
        }
        TcpEndpoint endpoint = endpoints[TcpWire.handshakeRank(in.handshake())];
        boolean keepOurs = endpoint == null || endpoint.state == State.CONNECTED
                || endpoint.state == State.CONNECTING && rank < endpoint.rank();
        in.channel().write(ByteBuffer.wrap(new byte[] {keepOurs ? TcpWire.REFUSED : TcpWire.ACCEPTED}));
        if (keepOurs) {
            key.cancel();
            in.channel().close();
            return;
        }
        attach(endpoint, in.channel(), key);
    }

    private void attach(TcpEndpoint endpoint, SocketChannel channel, SelectionKey key) throws IOException {
        if (endpoint.state == State.CONNECTING) {
            connecting--;
        }
        if (endpoint.outgoing != null && endpoint.outgoing != channel) {
            endpoint.outgoing.keyFor(selector).cancel();
            endpoint.outgoing.close();
        }
        endpoint.outgoing = null;
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        endpoint.channel = channel;
        endpoint.key = key;
        // Room for a partial frame plus a whole one, so a frame always fits after compaction.
        endpoint.readBuffer = ByteBuffer.allocateDirect(Math.toIntExact(2 * (settings.maxSendSize() + TcpWire.FRAME_HEADER)));
        endpoint.readSegment = MemorySegment.ofBuffer(endpoint.readBuffer);
        endpoint.state = State.CONNECTED;
        key.attach(new Established(endpoint));
        flush(endpoint);
    }

    // ---- receiving and progress ----------------------------------------------------------

    @Override
    public int progress() {
        int events = 0;
        try {
            if (selector.selectNow() > 0) {
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey key = it.next();
                    it.remove();
                    if (key.isValid()) {
                        events += handle(key);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("btl/tcp: rank " + rank + ": " + e.getMessage(), e);
        }
        if (connecting > 0) {
            checkConnectTimeouts();
        }
        return events;
    }

    private int handle(SelectionKey key) throws IOException {
        switch ((Attachment) key.attachment()) {
            case Listener l -> {
                for (SocketChannel c = l.server().accept(); c != null; c = l.server().accept()) {
                    c.configureBlocking(false);
                    c.register(selector, SelectionKey.OP_READ, new Incoming(c, ByteBuffer.allocate(TcpWire.HANDSHAKE_LENGTH)));
                }
                return 0;
            }
            case Incoming in -> {
                onIncoming(key, in);
                return 0;
            }
            case Outgoing out -> {
                onOutgoing(key, out);
                return 0;
            }
            case Established e -> {
                int events = 0;
                if (key.isReadable()) {
                    events += readFrames(e.endpoint());
                }
                if (key.isValid() && key.isWritable()) {
                    flush(e.endpoint());
                }
                return events;
            }
        }
    }

    private int readFrames(TcpEndpoint endpoint) {
        ByteBuffer buffer = endpoint.readBuffer;
        int n;
        try {
            n = endpoint.channel.read(buffer);
        } catch (IOException e) {
            throw lost(endpoint, e.getMessage());
        }
        int frames = 0;
        buffer.flip();
        while (buffer.remaining() >= 4) {
            int position = buffer.position();
            int length = buffer.getInt(position);
            if (length < 1 || length > settings.maxSendSize() + 1) {
                fail(endpoint);
                throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " got a frame of "
                        + length + " bytes from " + endpoint + ": the stream is corrupt");
            }
            if (buffer.remaining() < 4 + length) {
                break;
            }
            byte tag = buffer.get(position + 4);
            buffer.position(position + 4 + length);
            if (tag == TcpWire.GOODBYE) {
                endpoint.state = State.PEER_FINALIZED;
            } else {
                receiver.onFragment(endpoint, tag, endpoint.readSegment, position + TcpWire.FRAME_HEADER, length - 1);
                frames++;
            }
        }
        buffer.compact();
        if (n < 0) {
            closeQuietly(endpoint);
            if (endpoint.state != State.PEER_FINALIZED && !finalizing) {
                endpoint.state = State.FAILED;
                throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " lost its connection to "
                        + endpoint + ": the peer closed it without finalizing (did the process die?)");
            }
        }
        return frames;
    }

    private void checkConnectTimeouts() {
        long now = System.nanoTime();
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null && endpoint.state == State.CONNECTING
                    && now - endpoint.connectStartedNanos > settings.connectTimeoutNanos()) {
                fail(endpoint);
                throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " could not connect to "
                        + endpoint + " within " + settings.connectTimeoutNanos() / 1_000_000
                        + " ms (btl_tcp_connect_timeout)");
            }
        }
    }

    private PeerFailureException lost(TcpEndpoint endpoint, String why) {
        fail(endpoint);
        return new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " lost its connection to "
                + endpoint + ": " + why);
    }

    private void fail(TcpEndpoint endpoint) {
        if (endpoint.state == State.CONNECTING) {
            connecting--;
        }
        endpoint.state = State.FAILED;
        closeQuietly(endpoint);
    }

    private void closeQuietly(TcpEndpoint endpoint) {
        for (SocketChannel channel : new SocketChannel[] {endpoint.channel, endpoint.outgoing}) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Closing a socket that failed: nothing more to report.
                }
            }
        }
    }

    @Override
    public boolean hasPendingSends() {
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null && !endpoint.sendQueue.isEmpty() && endpoint.state != State.FAILED) {
                return true;
            }
        }
        return false;
    }

    /** Says GOODBYE on every connection, waits briefly for it to leave, and closes everything. */
    @Override
    public void finalizeModule() {
        finalizing = true;
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null && endpoint.state == State.CONNECTED) {
                queue(endpoint, copyOf(frame(TcpWire.GOODBYE, MemorySegment.ofArray(new byte[0]),
                        MemorySegment.ofArray(new byte[0]))));
                flush(endpoint);
            }
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (hasPendingSends() && System.nanoTime() < deadline) {
            try {
                progress();
            } catch (RuntimeException e) {
                break;
            }
            Thread.onSpinWait();
        }
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null) {
                closeQuietly(endpoint);
            }
        }
        try {
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
            selector.close();
        } catch (IOException ignored) {
            // Finalizing: the sockets are going away either way.
        }
    }
}
