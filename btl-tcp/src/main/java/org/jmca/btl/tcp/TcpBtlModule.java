package org.jmca.btl.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.jmca.btl.base.NetworkAddresses;
import org.jmca.btl.tcp.TcpEndpoint.State;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.Bridge;
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
 *
 * <p>The module drives the selector and the framing: it accepts sockets, reads the handshake of
 * each to find its peer, hands each key's readiness to the endpoint it is for, and writes and
 * reads frames. Each {@link TcpEndpoint} owns the state of its connection: what happens when it
 * is made, accepted, closed or lost.
 */
final class TcpBtlModule implements BtlModule {
    static final String ADDRESSES_KEY = "tcp.addresses";
    static final Counter READS = new Counter("btl_tcp_reads", "reads from connections that returned bytes");
    static final Counter BYTES_READ = new Counter("btl_tcp_bytes_read", "bytes read from connections");
    static final Counter WRITES = new Counter("btl_tcp_writes", "writes to connections");
    static final Counter BYTES_QUEUED = new Counter("btl_tcp_bytes_queued",
            "bytes copied into send queues because the socket was full or the connection not yet made");
    static final List<Counter> COUNTERS = List.of(READS, BYTES_READ, WRITES, BYTES_QUEUED);
    /**
     * Bytes of header and payload copied into a frame's head, which then goes in one write;
     * a larger payload goes from the caller's memory in a gathering write.
     */
    private static final int HEAD_ROOM = 4096;
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    /** What a key of the selector is for, which says what its readiness means. */
    sealed interface Attachment permits Listener, Incoming, Outgoing, Established { }

    /** A listening socket: peers connect to it. */
    record Listener(ServerSocketChannel server) implements Attachment { }

    /** A connection accepted, its handshake not yet read whole: whose it is, is not known yet. */
    record Incoming(SocketChannel channel, ByteBuffer handshake) implements Attachment { }

    /** A connection an endpoint started to its address {@code addressIndex}: our handshake, then the peer's answer. */
    record Outgoing(TcpEndpoint endpoint, SocketChannel channel, int addressIndex, ByteBuffer handshake,
                    ByteBuffer reply) implements Attachment { }

    /** An endpoint's connection, up: frames both ways. */
    record Established(TcpEndpoint endpoint) implements Attachment { }

    private final int rank;
    private final String hostname;
    private final byte[] keyDigest;
    private final TcpSettings settings;
    private final BtlProperties properties;
    private final Selector selector;
    /** What this module's endpoints share. */
    private final TcpEndpoint.Local local;
    private final List<InetSocketAddress> listening = new ArrayList<>();
    /** A frame's first bytes: the length, the tag, the PML's header and a small payload. */
    private final ByteBuffer head = ByteBuffer.allocateDirect(TcpWire.FRAME_HEADER + HEAD_ROOM);
    private final MemorySegment headSegment = MemorySegment.ofBuffer(head);
    private final ByteBuffer[] gather = new ByteBuffer[3];
    /** A payload copied out of the Java heap, and a header too large for the head, likewise. */
    private final ByteBuffer payloadCopy;
    private final MemorySegment payloadCopySegment;
    private final ByteBuffer headerCopy;
    private final MemorySegment headerCopySegment;
    private final SendQueue.ChunkPool chunks;
    /**
     * True while progress reads: small frames sent meanwhile (the PML's answers to what arrives,
     * such as the ACKs of a window of rendezvous) are held in their queues and leave together in
     * one write per peer when the turn ends, instead of a system call each.
     */
    private boolean receiving;
    private final ArrayDeque<TcpEndpoint> corked = new ArrayDeque<>();
    private final Consumer<String> log;
    private int jobSize;
    private TcpEndpoint[] endpoints = new TcpEndpoint[0];
    private BtlReceiver receiver;
    private boolean finalizing;
    private long reads;
    private long bytesRead;
    /** Writes straight from the caller's memory; those of the send queues are counted there. */
    private long directWrites;

    TcpBtlModule(int rank, String hostname, byte[] jobKey, List<NetworkAddresses.Address> addresses,
                 TcpSettings settings, Consumer<String> log) {
        this.rank = rank;
        this.hostname = hostname;
        this.keyDigest = TcpWire.keyDigest(jobKey);
        this.settings = settings;
        this.log = log;
        this.properties = settings.properties();
        this.payloadCopy = ByteBuffer.allocateDirect(Math.toIntExact(settings.maxSendSize()));
        this.payloadCopySegment = MemorySegment.ofBuffer(payloadCopy);
        this.headerCopy = ByteBuffer.allocateDirect(Math.toIntExact(settings.maxSendSize()));
        this.headerCopySegment = MemorySegment.ofBuffer(headerCopy);
        // spare chunks for as much as one peer may queue
        this.chunks = new SendQueue.ChunkPool((int) Math.min(1024, settings.maxQueuedBytes() / SendQueue.CHUNK + 1));
        try {
            this.selector = Selector.open();
            for (NetworkAddresses.Address address : addresses) {
                ServerSocketChannel server = ServerSocketChannel.open();
                server.bind(new InetSocketAddress(address.address(), 0), 64);
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT, new Listener(server));
                listening.add((InetSocketAddress) server.getLocalAddress());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("btl/tcp: cannot listen on " + NetworkAddresses.describe(addresses), e);
        }
        this.local = new TcpEndpoint.Local(rank, keyDigest, selector, settings);
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
                    ? List.of() : reachable(parse(published, peer.rank()), peer.hostname().equals(hostname));
            if (peer.rank() == rank || addresses.isEmpty()) {
                result.add(null);
                continue;
            }
            TcpEndpoint endpoint = new TcpEndpoint(peer.rank(), this, local, addresses, peer.hostname(), chunks);
            endpoints[peer.rank()] = endpoint;
            result.add(endpoint);
        }
        return result;
    }

    /**
     * Another job's processes: the side that initiates connects to each at once (so that the
     * other side may send as soon as it likes), the other side only accepts their connections.
     */
    @Override
    public List<BtlEndpoint> addBridgedPeers(Bridge bridge) {
        byte[] digest = TcpWire.keyDigest(bridge.key());
        int highest = bridge.peers().stream().mapToInt(Peer::rank).max().orElse(-1);
        if (highest >= endpoints.length) {
            endpoints = Arrays.copyOf(endpoints, highest + 1);
        }
        List<BtlEndpoint> result = new ArrayList<>();
        for (int i = 0; i < bridge.peers().size(); i++) {
            Peer peer = bridge.peers().get(i);
            String published = peer.addresses().get(ADDRESSES_KEY);
            if (published == null || published.isEmpty()) {
                result.add(null);
                continue;
            }
            List<InetSocketAddress> addresses = bridge.initiator()
                    ? reachable(parse(published, peer.rank()), peer.hostname().equals(hostname)) : List.of();
            TcpEndpoint endpoint = new TcpEndpoint(peer.rank(), this, local, addresses, peer.hostname(), chunks);
            endpoint.bridgeDigest = digest;
            endpoint.indexThere = bridge.selfIndexAtPeer()[i];
            endpoints[peer.rank()] = endpoint;
            result.add(endpoint);
            if (bridge.initiator() && !addresses.isEmpty()) {
                endpoint.connect(0);
            }
        }
        return result;
    }

    /** A peer on this host is tried over loopback first; a remote peer never over loopback. */
    private static List<InetSocketAddress> reachable(List<InetSocketAddress> addresses, boolean sameHost) {
        return addresses.stream()
                .filter(a -> sameHost || !a.getAddress().isLoopbackAddress())
                // loopback first (a lambda, not the JDK's serializable comparator combinators,
                // which the AOT cache does not keep)
                .sorted((a, b) -> Boolean.compare(!a.getAddress().isLoopbackAddress(), !b.getAddress().isLoopbackAddress()))
                .toList();
    }

    /**
     * The addresses rank {@code rank} published ("host:port,..."): every entry a host and a port
     * 1..65535 that resolve, else an error naming the rank and the entry.
     */
    static List<InetSocketAddress> parse(String published, int rank) {
        return Arrays.stream(published.split(",")).map(hostPort -> {
            int colon = hostPort.lastIndexOf(':');
            int port = -1;
            try {
                port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                // said below
            }
            if (port < 1 || port > 65_535) {
                throw new McaException("btl/tcp: rank " + rank + " published the address '" + hostPort
                        + "' (in '" + published + "'), which is not host:port");
            }
            InetSocketAddress address = new InetSocketAddress(hostPort.substring(0, colon), port);
            if (address.isUnresolved()) {
                throw new McaException("btl/tcp: rank " + rank + " published the address '" + hostPort
                        + "', whose host does not resolve here");
            }
            return address;
        }).toList();
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    // ---- sending -------------------------------------------------------------------------

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        long length = header.byteSize() + payload.byteSize();
        checkSendable((TcpEndpoint) to, length);
        head.clear().putInt((int) (1 + length)).put(tag);
        if (header.byteSize() > HEAD_ROOM) {
            // a header larger than the head buffer: it joins the payload's gather
            return transmit((TcpEndpoint) to, direct(header, headerCopy, headerCopySegment), payload);
        }
        MemorySegment.copy(header, 0, headSegment, head.position(), header.byteSize());
        head.position(head.position() + (int) header.byteSize());
        return transmit((TcpEndpoint) to, null, payload);
    }

    /** The PML's header of two words goes straight into the frame's head, with no buffer of its own. */
    @Override
    public boolean send(BtlEndpoint to, byte tag, long header0, long header1, MemorySegment payload) {
        long length = 2 * Long.BYTES + payload.byteSize();
        checkSendable((TcpEndpoint) to, length);
        headSegment.set(ValueLayout.JAVA_LONG_UNALIGNED, TcpWire.FRAME_HEADER, header0);
        headSegment.set(ValueLayout.JAVA_LONG_UNALIGNED, TcpWire.FRAME_HEADER + Long.BYTES, header1);
        head.clear().putInt((int) (1 + length)).put(tag).position(TcpWire.FRAME_HEADER + 2 * Long.BYTES);
        return transmit((TcpEndpoint) to, null, payload);
    }

    private void checkSendable(TcpEndpoint endpoint, long length) {
        if (length > settings.maxSendSize()) {
            throw new IllegalArgumentException("fragment of " + length + " bytes exceeds btl_tcp_max_send_size="
                    + settings.maxSendSize());
        }
        endpoint.checkSendable();
    }

    /**
     * Sends the frame whose first bytes are in {@link #head} (up to its position), then
     * {@code bigHeader} if not null, then {@code payload}. With the connection up and nothing
     * queued, it goes from the caller's memory to the socket: a small payload copied into the
     * head, a larger one in a gathering write. What the socket does not take is queued.
     */
    private boolean transmit(TcpEndpoint endpoint, ByteBuffer bigHeader, MemorySegment payload) {
        ByteBuffer body;
        if (bigHeader == null && payload.byteSize() <= head.remaining()) {
            MemorySegment.copy(payload, 0, headSegment, head.position(), payload.byteSize());
            head.position(head.position() + (int) payload.byteSize());
            body = EMPTY;
        } else {
            body = direct(payload, payloadCopy, payloadCopySegment);
        }
        head.flip();
        if (endpoint.state() == State.CONNECTED && endpoint.corked) {
            if (bigHeader == null && !body.hasRemaining()) {
                endpoint.sendQueue.append(head);
                return true;
            }
            flushCorked(endpoint); // what the frame must follow, so that it may go straight out
        }
        if (endpoint.state() == State.CONNECTED && endpoint.sendQueue.isEmpty()) {
            if (receiving && bigHeader == null && !body.hasRemaining()) {
                // an answer to what is being read (an ACK, a FIN): it waits for the others of this turn
                endpoint.corked = true;
                corked.addLast(endpoint);
                endpoint.sendQueue.append(head);
                return true;
            }
            try {
                directWrites++;
                if (bigHeader == null && !body.hasRemaining()) {
                    endpoint.channel().write(head);
                } else {
                    gather[0] = head;
                    gather[1] = bigHeader != null ? bigHeader : EMPTY;
                    gather[2] = body;
                    endpoint.channel().write(gather);
                }
            } catch (IOException e) {
                throw endpoint.lost(e.getMessage());
            }
            if (head.hasRemaining() || bigHeader != null && bigHeader.hasRemaining() || body.hasRemaining()) {
                queue(endpoint, bigHeader, body);
                endpoint.awaitWritable();
            }
            return true;
        }
        long length = head.remaining() + (bigHeader == null ? 0 : bigHeader.remaining()) + body.remaining();
        if (endpoint.sendQueue.bytes() + length > settings.maxQueuedBytes() && !endpoint.sendQueue.isEmpty()) {
            return false;
        }
        queue(endpoint, bigHeader, body);
        endpoint.connectIfClosed();
        return true;
    }

    /**
     * {@code data} as a direct buffer: a view of native memory, else a copy in {@code copy}
     * ({@code copyMemory} is all of it; NIO would copy a Java array into a temporary direct
     * buffer anyway, and cannot view arrays other than byte[]).
     */
    private static ByteBuffer direct(MemorySegment data, ByteBuffer copy, MemorySegment copyMemory) {
        if (data.isNative()) {
            return data.asByteBuffer();
        }
        MemorySegment.copy(data, 0, copyMemory, 0, data.byteSize());
        return copy.clear().limit((int) data.byteSize());
    }

    /** Copies what is left of the frame into the endpoint's queue. */
    private void queue(TcpEndpoint endpoint, ByteBuffer bigHeader, ByteBuffer body) {
        endpoint.sendQueue.append(head);
        if (bigHeader != null) {
            endpoint.sendQueue.append(bigHeader);
        }
        endpoint.sendQueue.append(body);
    }

    /** Sends the small frames held back while reading (see {@link #receiving}). */
    private void flushCorked(TcpEndpoint endpoint) {
        if (endpoint.corked) {
            endpoint.corked = false;
            if (endpoint.state() == State.CONNECTED) {
                endpoint.flush();
            }
        }
    }

    // ---- accepting -----------------------------------------------------------------------

    /**
     * A connection a peer started: once its handshake is in whole, one that does not show this
     * job's key (or a bridge's) is logged and closed; otherwise the endpoint of the rank it names
     * decides whether to take it.
     */
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
        TcpEndpoint endpoint = bridged(in.handshake());
        String refusal = endpoint != null ? null : TcpWire.checkHandshake(in.handshake(), keyDigest, jobSize);
        if (refusal != null) {
            log.accept("btl/tcp: rank " + rank + " refused a connection from " + remote + ": " + refusal);
            key.cancel();
            in.channel().close();
            return;
        }
        if (endpoint == null) {
            endpoint = endpoints[TcpWire.handshakeRank(in.handshake())];
        }
        if (endpoint == null) {
            TcpEndpoint.refuse(in.channel(), key);
            return;
        }
        endpoint.accept(in.channel(), key);
    }

    /** The bridged peer a handshake comes from (its bridge's key, and its index here), or null. */
    private TcpEndpoint bridged(ByteBuffer handshake) {
        byte[] key = TcpWire.handshakeKey(handshake);
        int index = TcpWire.handshakeRank(handshake);
        if (key == null || index < jobSize || index >= endpoints.length || endpoints[index] == null) {
            return null;
        }
        TcpEndpoint endpoint = endpoints[index];
        return endpoint.bridgeDigest != null && java.security.MessageDigest.isEqual(key, endpoint.bridgeDigest)
                ? endpoint : null;
    }

    // ---- receiving and progress ----------------------------------------------------------

    @Override
    public int progress() {
        int events = 0;
        boolean nested = receiving;
        receiving = true;
        try {
            selector.selectNow();
            // the selected set, not selectNow's count of keys it just added: a peer's failure thrown
            // from handle() leaves the other keys selected, and the next turn must take them
            if (!selector.selectedKeys().isEmpty()) {
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
        } finally {
            receiving = nested;
        }
        if (!nested) {
            for (TcpEndpoint endpoint = corked.pollFirst(); endpoint != null; endpoint = corked.pollFirst()) {
                flushCorked(endpoint);
            }
        }
        if (local.anyConnecting()) {
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
                out.endpoint().onOutgoing(key, out);
                return 0;
            }
            case Established e -> {
                int events = 0;
                if (key.isReadable()) {
                    events += readFrames(e.endpoint());
                }
                if (key.isValid() && key.isWritable()) {
                    e.endpoint().flush();
                }
                return events;
            }
        }
    }

    /**
     * Reads what the connection has after the bytes kept from before, and hands every whole
     * frame to the receiver. A partial frame stays where it is while the buffer has room for
     * the rest of it, and is moved to the front only when it has not: moving one at every read
     * would copy a large fragment's bytes once more.
     */
    private int readFrames(TcpEndpoint endpoint) {
        ByteBuffer buffer = endpoint.readBuffer;
        int n;
        try {
            n = endpoint.channel().read(buffer);
        } catch (IOException e) {
            throw endpoint.lost(e.getMessage());
        }
        if (n > 0) {
            reads++;
            bytesRead += n;
        }
        int frames = 0;
        int end = buffer.position();
        int at = endpoint.readStart;
        while (end - at >= 4) {
            int length = buffer.getInt(at);
            if (length < 1 || length > settings.maxSendSize() + 1) {
                endpoint.fail();
                throw new PeerFailureException(endpoint.rank(), "btl/tcp: rank " + rank + " got a frame of "
                        + length + " bytes from " + endpoint + ": the stream is corrupt");
            }
            if (end - at < 4 + length) {
                if (at + 4 + length > buffer.capacity()) {
                    buffer.put(0, buffer, at, end - at).position(end - at);
                    at = 0;
                }
                break;
            }
            byte tag = buffer.get(at + 4);
            if (tag == TcpWire.GOODBYE) {
                endpoint.peerFinalized();
            } else {
                receiver.onFragment(endpoint, tag, endpoint.readSegment, at + TcpWire.FRAME_HEADER, length - 1);
                frames++;
            }
            at += 4 + length;
        }
        if (at == end) {
            buffer.clear();
            at = 0;
        } else if (end - at < 4 && buffer.capacity() - at < 4) {
            buffer.put(0, buffer, at, end - at).position(end - at);
            at = 0;
        }
        endpoint.readStart = at;
        if (n < 0) {
            endpoint.closedByPeer(finalizing);
        }
        return frames;
    }

    private void checkConnectTimeouts() {
        long now = System.nanoTime();
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null) {
                endpoint.checkConnectTimeout(now);
            }
        }
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return List.of(READS.readBy(() -> reads), BYTES_READ.readBy(() -> bytesRead),
                WRITES.readBy(() -> directWrites + sumOverQueues(SendQueue::writes)),
                BYTES_QUEUED.readBy(() -> sumOverQueues(SendQueue::appendedBytes)));
    }

    private long sumOverQueues(ToLongFunction<SendQueue> counter) {
        long sum = 0;
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null) {
                sum += counter.applyAsLong(endpoint.sendQueue);
            }
        }
        return sum;
    }

    @Override
    public boolean hasPendingSends() {
        for (TcpEndpoint endpoint : endpoints) {
            if (endpoint != null && !endpoint.sendQueue.isEmpty() && endpoint.state() != State.FAILED) {
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
            if (endpoint != null && endpoint.state() == State.CONNECTED) {
                head.clear().putInt(1).put(TcpWire.GOODBYE).flip();
                endpoint.sendQueue.append(head);
                try {
                    endpoint.flush();
                } catch (PeerFailureException e) {
                    // the peer finalized first and closed its end: it needs no goodbye
                }
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
                endpoint.close();
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
