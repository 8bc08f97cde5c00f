package org.jmca.btl.base;

import static org.jmca.btl.base.Sockets.readFully;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The wire of an emulated device between processes on different hosts: a listening socket
 * whose address peers learn in the address exchange, connections that present the job's key (a
 * stranger's is refused), and an agent thread per incoming connection. Every thread of the wire
 * ends before {@link #stop} returns, so a device may then unmap what they read and write.
 *
 * <p>It carries either
 * <ul>
 * <li>frames (the emulated GM NIC's, the LAPI switch's): one TCP connection from this process to
 *     each peer it sends to, carrying frames in the order they were queued, whose agent hands
 *     each frame to the {@link Receiver}, in order. A connection that breaks, or that the peer
 *     closes, reports its peer down, once; so does one that brings a frame no peer of this job
 *     sends (a length outside 0..{@code maxFrame}, or one the receiver refuses by throwing), which
 *     this end then closes. On the socket: {@code int length} (native order) then the bytes;
 * <li>or a protocol of the device's own (the software verbs device's requests and answers): the
 *     device opens its connections with {@link #connect} and runs their threads with
 *     {@link #start}; its {@link Agent} serves each incoming connection, and may answer on it.
 * </ul>
 *
 * <p>Threads: {@link #send} and {@link #connect} from any thread; the receiver or agent runs on
 * the agent threads, one per peer.
 */
public final class SocketWire implements AutoCloseable {
    /** How long closing waits for queued frames to be written. */
    private static final long DRAIN_NANOS = 2_000_000_000L;
    /** How long stopping waits for the wire's threads to end. */
    private static final long STOP_WAIT_NANOS = 5_000_000_000L;

    private static final int CONNECT_TIMEOUT_MS = 10_000;
    /** Frames a writer puts on the socket with one gathering write. */
    private static final int BATCH = 64;
    /** The largest frame a wire can take: the largest byte array a JVM allocates. */
    public static final int LARGEST_FRAME = Integer.MAX_VALUE - 8;

    /**
     * Takes the frames peers send; the frame is valid only during the call. A frame it cannot
     * take (malformed) it refuses by throwing: the wire then closes the sender's connection and
     * reports the sender down, since what it sends next would be lost.
     */
    @FunctionalInterface
    public interface Receiver {
        void onFrame(int from, ByteBuffer frame);
    }

    /**
     * Serves one peer's incoming connection, for a protocol of the device's own: reads it (and may
     * answer on it) until it or the wire closes. Runs on the connection's agent thread; the wire
     * closes the connection when it returns or throws.
     */
    @FunctionalInterface
    public interface Agent {
        void serve(int from, SocketChannel channel) throws IOException;
    }

    private final String name;
    private final int self;
    private final long magic;
    private final byte[] jobKey;
    private final Receiver receiver;
    private final Agent agent;
    private final IntConsumer peerDown;
    /** The ids a peer may introduce itself with, and the largest frame one may send. */
    private final int firstPeer;
    private final int lastPeer;
    private final int maxFrame;
    /** Peers reported down, each once. */
    private final Set<Integer> peersDown = ConcurrentHashMap.newKeySet();
    private final ServerSocketChannel server;
    private final String address;
    private final Map<Integer, List<InetSocketAddress>> remotes = new ConcurrentHashMap<>();
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    /** Every connection, accepted or made: {@link #stop} closes them. */
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Starts listening, for frames.
     *
     * @param name      for messages and thread names: "btl/gm node 3"
     * @param self      this end's id, presented to peers
     * @param magic     the protocol's magic number, checked on connect
     * @param firstPeer the lowest id a peer of the job has; a connection with another id is refused
     * @param lastPeer  the highest
     * @param maxFrame  the largest frame a peer sends (at most {@link #LARGEST_FRAME})
     * @param peerDown  told the id of a peer whose connection broke or brought a frame no peer
     *                  sends (from a wire thread)
     */
    public SocketWire(String name, int self, long magic, byte[] jobKey, int firstPeer, int lastPeer, int maxFrame,
                      Receiver receiver, IntConsumer peerDown) {
        this(name, self, magic, jobKey, firstPeer, lastPeer, maxFrame, receiver, null, peerDown);
    }

    /**
     * Starts listening, for a protocol of the caller's own: {@code agent} serves each incoming
     * connection, whatever id it presents; the caller opens its own with {@link #connect}.
     */
    public SocketWire(String name, int self, long magic, byte[] jobKey, Agent agent) {
        this(name, self, magic, jobKey, 0, Integer.MAX_VALUE, 0, null, agent, peer -> { });
    }

    private SocketWire(String name, int self, long magic, byte[] jobKey, int firstPeer, int lastPeer, int maxFrame,
                       Receiver receiver, Agent agent, IntConsumer peerDown) {
        if (firstPeer > lastPeer || maxFrame < 0 || maxFrame > LARGEST_FRAME) {
            throw new IllegalArgumentException(name + ": peers " + firstPeer + ".." + lastPeer + " and frames of at most "
                    + maxFrame + " bytes (up to " + LARGEST_FRAME + ")");
        }
        this.name = name;
        this.self = self;
        this.magic = magic;
        this.jobKey = jobKey.clone();
        this.receiver = receiver;
        this.agent = agent != null ? agent : this::receiveFrames;
        this.peerDown = peerDown;
        this.firstPeer = firstPeer;
        this.lastPeer = lastPeer;
        this.maxFrame = maxFrame;
        try {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(0), 64);
            address = Sockets.publishedAddress(server);
        } catch (IOException e) {
            throw new IllegalStateException(name + ": cannot listen for remote peers: " + e, e);
        }
        start("accept", this::acceptLoop);
    }

    /** How remote peers reach this end: publish it in the address exchange. */
    public String address() {
        return address;
    }

    /** Peer {@code peer} is reached through this wire, at its {@link #address()}. */
    public void learn(int peer, String published) {
        try {
            remotes.put(peer, Sockets.candidates(published));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": peer " + peer + ": " + e.getMessage(), e);
        }
    }

    public boolean reaches(int peer) {
        return remotes.containsKey(peer);
    }

    /** True until the wire stops. */
    public boolean isOpen() {
        return !closed;
    }

    /**
     * Queues {@code frame} (its remaining bytes, which become the wire's) for {@code peer}; for a
     * wire of frames.
     *
     * @return false if the connection to the peer is down
     */
    public boolean send(int peer, ByteBuffer frame) {
        Link link = links.computeIfAbsent(peer, Link::new);
        if (peersDown.contains(peer)) {
            return false;
        }
        link.queued.addAndGet(frame.remaining());
        link.frames.add(frame);
        return true;
    }

    /** Bytes queued for {@code peer} and not yet written to its socket, for flow control. */
    public long queuedBytes(int peer) {
        Link link = links.get(peer);
        return link == null ? 0 : link.queued.get();
    }

    /** Runs {@code body} on a new thread of the wire ("name wire role"), which {@link #stop} waits for. */
    public Thread start(String role, Runnable body) {
        Thread thread = Thread.ofVirtual().name(name + " wire " + role).unstarted(() -> {
            try {
                body.run();
            } finally {
                threads.remove(Thread.currentThread());
            }
        });
        threads.add(thread);
        thread.start();
        return thread;
    }

    /**
     * Lets the writers send what is queued, for up to {@link #DRAIN_NANOS}: a message its sender
     * counts as sent (a barrier's last one at finalize) must not die in the queue when the
     * process closes the wire right after.
     */
    private void drain() {
        long deadline = System.nanoTime() + DRAIN_NANOS;
        while (System.nanoTime() < deadline
                && links.values().stream().anyMatch(link -> !peersDown.contains(link.peer) && link.queued.get() > 0)) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    /** The connection to one peer: frames out by a writer thread. */
    private final class Link {
        final int peer;
        final LinkedBlockingQueue<ByteBuffer> frames = new LinkedBlockingQueue<>();
        final AtomicLong queued = new AtomicLong();
        private volatile SocketChannel channel;

        Link(int peer) {
            this.peer = peer;
            start("to " + peer, this::run);
        }

        private void run() {
            List<ByteBuffer> batch = new ArrayList<>(BATCH);
            ByteBuffer[] lengths = new ByteBuffer[BATCH];
            for (int i = 0; i < BATCH; i++) {
                lengths[i] = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
            }
            ByteBuffer[] gather = new ByteBuffer[2 * BATCH];
            try {
                channel = connect(peer);
                start("watch " + peer, this::watch);
                while (!closed) {
                    batch.add(frames.take());
                    frames.drainTo(batch, BATCH - 1);
                    int n = 0;
                    long bytes = 0;
                    for (ByteBuffer frame : batch) {
                        gather[2 * n] = lengths[n].clear().putInt(0, frame.remaining());
                        gather[2 * n + 1] = frame;
                        bytes += frame.remaining();
                        n++;
                    }
                    long remaining = bytes + 4L * n;
                    while (remaining > 0) {
                        remaining -= channel.write(gather, 0, 2 * n);
                    }
                    queued.addAndGet(-bytes);
                    batch.clear();
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                reportDown(peer);
            }
        }

        /**
         * Reads the connection, on which the peer never writes, to learn at once that it closed
         * (a write into a connection the peer closed may still succeed: TCP says so only later).
         */
        private void watch() {
            try {
                if (channel.read(ByteBuffer.allocate(1)) >= 0) {
                    throw new IOException(name + ": peer " + peer + " wrote on a connection it should only read");
                }
                throw new IOException("closed by peer " + peer);
            } catch (IOException | RuntimeException e) {
                reportDown(peer);
            }
        }

        /** Wakes the writer, which then sees the wire closed ({@link #stop} closes the connection). */
        void wake() {
            frames.add(ByteBuffer.allocate(0));
        }
    }

    /** Reports {@code peer} down, once, unless this wire is stopping (which breaks every connection). */
    private void reportDown(int peer) {
        if (!closed && peersDown.add(peer)) {
            peerDown.accept(peer);
        }
    }

    /**
     * Opens a connection to {@code peer}, introduced by this end's id and the job's key, for a
     * protocol of the caller's own; {@link #stop} closes it.
     *
     * @throws IOException if the peer cannot be reached (said on stderr too)
     */
    public SocketChannel connect(int peer) throws IOException {
        List<InetSocketAddress> candidates = remotes.get(peer);
        if (candidates == null) {
            throw new IOException(name + ": no address for peer " + peer);
        }
        SocketChannel channel;
        try {
            channel = Sockets.connect(candidates, CONNECT_TIMEOUT_MS, magic, self, jobKey);
        } catch (IOException e) {
            if (!closed) {
                System.err.println(name + ": cannot reach peer " + peer + " at " + candidates + ": " + e);
            }
            throw e;
        }
        connections.add(channel);
        if (closed) { // stopped meanwhile, perhaps before it closed the connections
            closeQuietly(channel);
            throw new IOException(name + " is closed");
        }
        return channel;
    }

    private void acceptLoop() {
        IOException failure = Sockets.acceptAll(server, channel -> {
            connections.add(channel);
            start("agent", () -> serve(channel));
        });
        if (failure != null && !closed) {
            System.err.println(name + ": stops accepting remote peers: " + failure);
        }
    }

    /** Checks a connection's introduction, then hands it to the agent. */
    private void serve(SocketChannel channel) {
        try (channel) {
            serveIntroduced(channel);
        } catch (IOException | RuntimeException e) {
            // the sender went away: its own side reports it
        } finally {
            connections.remove(channel);
        }
    }

    /**
     * Serves a connection once it introduced itself as a peer of the job; says why it refuses one
     * before the connection closes, so that whoever sees it closed can see why.
     */
    private void serveIntroduced(SocketChannel channel) throws IOException {
        int sender;
        try {
            sender = Sockets.introduction(channel, magic, jobKey, firstPeer, lastPeer);
        } catch (Sockets.Refused e) {
            System.err.println(name + ": " + e.getMessage());
            return;
        }
        if (sender < 0) {
            System.err.println(name + ": refused a connection without the job's key");
            return;
        }
        try {
            agent.serve(sender, channel);
        } catch (BadFrame e) {
            if (!closed) {
                System.err.println(e.getMessage() + ": closing its connection, peer " + sender + " is down");
                reportDown(sender);
            }
        }
    }

    /** A frame no peer of the job sends: its connection is closed, and the peer reported down. */
    private static final class BadFrame extends IOException {
        BadFrame(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The agent of a wire of frames: hands each frame of one peer to the receiver, in the order sent. */
    private void receiveFrames(int sender, SocketChannel channel) throws IOException {
        ByteBuffer length = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
        ByteBuffer frame = ByteBuffer.allocate(Math.min(64 * 1024, maxFrame)).order(ByteOrder.nativeOrder());
        while (!closed) {
            length.clear();
            readFully(channel, length);
            int n = length.getInt(0);
            if (n < 0 || n > maxFrame) {
                throw new BadFrame(name + ": peer " + sender + " sent a frame of " + n + " bytes (its length field),"
                        + " not 0.." + maxFrame, null);
            }
            if (n > frame.capacity()) {
                try {
                    frame = ByteBuffer.allocate((int) Math.min(Math.max(n, 2L * frame.capacity()), maxFrame))
                            .order(ByteOrder.nativeOrder());
                } catch (OutOfMemoryError e) {
                    throw new BadFrame(name + ": peer " + sender + " sent a frame of " + n
                            + " bytes, more than this JVM has room for", e);
                }
            }
            frame.clear().limit(n);
            readFully(channel, frame);
            frame.flip();
            try {
                receiver.onFrame(sender, frame);
            } catch (RuntimeException e) {
                throw new BadFrame(name + ": peer " + sender + " sent a frame of " + n + " bytes that was refused: "
                        + e.getMessage(), e);
            }
        }
    }

    /**
     * Lets the queued frames go out (for up to 2 s), closes the sockets and waits, up to 5 s in
     * all, for the wire's threads to end.
     *
     * @return false if one still runs (named on stderr): what it reads and writes must stay mapped
     */
    public boolean stop() {
        drain();
        closed = true;
        closeQuietly(server);
        links.values().forEach(Link::wake);
        List.copyOf(connections).forEach(SocketWire::closeQuietly);
        List<Thread> running = List.copyOf(threads);
        running.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + STOP_WAIT_NANOS;
        for (Thread thread : running) {
            try {
                if (!thread.join(Duration.ofNanos(deadline - System.nanoTime()))) {
                    System.err.println(name + ": " + thread.getName() + " did not stop within "
                            + STOP_WAIT_NANOS / 1_000_000_000L + " s");
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** {@link #stop}s the wire. */
    @Override
    public void close() {
        stop();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
