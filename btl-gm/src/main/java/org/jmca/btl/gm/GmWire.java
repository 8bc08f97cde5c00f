package org.jmca.btl.gm;

import static org.jmca.btl.base.Sockets.readFully;
import static org.jmca.btl.base.Sockets.writeFully;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.jmca.btl.base.Sockets;
import org.jmca.mca.gm.GmException;

/**
 * The emulated GM NIC's wire between hosts: one TCP connection from this node to each remote
 * node it sends to, carrying the packets of all of this node's ports in order, each with the
 * port it is for. A packet carries its data (the remote node cannot read this process's
 * memory); at the other end an agent hands it to the port of that number, or answers that the
 * port is not open, and the sender's send fails as GM's does. A connection that breaks fails
 * the sends outstanding to its node.
 *
 * <p>Frames: {@code int length, byte kind, int port, long sendId, long word, payload}; answers
 * (agent to sender, on the same connection): {@code int port, long sendId} of a packet no port
 * took.
 */
final class GmWire implements AutoCloseable {
    private static final long MAGIC = 0x4a4d43412d474d57L;
    private static final int FRAME_HEADER = 25;
    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final int node;
    private final byte[] jobKey;
    private final ServerSocketChannel server;
    private final String address;
    private final Map<Integer, List<InetSocketAddress>> remotes = new ConcurrentHashMap<>();
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    private final Map<Integer, EmulatedGmPort> ports = new ConcurrentHashMap<>();
    private final Set<SocketChannel> accepted = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    GmWire(int node, byte[] jobKey) {
        this.node = node;
        this.jobKey = jobKey.clone();
        try {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(0), 64);
            address = Sockets.publishedAddress(server);
        } catch (IOException e) {
            throw new GmException("emulated GM NIC: cannot listen for remote nodes: " + e);
        }
        start("gm-wire-accept-" + node, this::acceptLoop);
    }

    /** How remote nodes reach this one. */
    String address() {
        return address;
    }

    /** Node {@code remote} is reached through this wire, at {@code published}. */
    void learn(int remote, String published) {
        try {
            remotes.put(remote, Sockets.candidates(published));
        } catch (IllegalArgumentException e) {
            throw new GmException("emulated GM NIC: node " + remote + ": " + e.getMessage());
        }
    }

    boolean reaches(int remote) {
        return remotes.containsKey(remote);
    }

    /** A port of this node opened: packets for its number go to it. */
    void attach(EmulatedGmPort port) {
        ports.put(port.portId(), port);
    }

    void detach(EmulatedGmPort port) {
        ports.remove(port.portId(), port);
    }

    private Thread start(String name, Runnable body) {
        Thread thread = Thread.ofVirtual().name(name).unstarted(() -> {
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

    // ---- sending ----------------------------------------------------------------------------

    /**
     * Queues a packet of {@code port} for node {@code to}, its payload copied now. The sender's
     * port learns of a failure from {@link EmulatedGmPort#remoteSendFailed}.
     */
    void send(int to, EmulatedGmPort port, byte kind, long sendId, long word, MemorySegment payload) {
        ByteBuffer frame = ByteBuffer.allocate(4 + FRAME_HEADER + (int) payload.byteSize()).order(ByteOrder.nativeOrder());
        frame.putInt(FRAME_HEADER + (int) payload.byteSize()).put(kind).putInt(port.portId()).putLong(sendId)
                .putLong(word);
        MemorySegment.ofArray(frame.array()).asSlice(4 + FRAME_HEADER).copyFrom(payload);
        frame.position(0);
        Link link = links.computeIfAbsent(to, Link::new);
        if (link.down) {
            port.remoteNodeDown(to);
            return;
        }
        link.frames.add(frame);
    }

    /** The connection to one remote node: frames out by a writer thread, answers in by a reader. */
    private final class Link {
        final int remote;
        final LinkedBlockingQueue<ByteBuffer> frames = new LinkedBlockingQueue<>();
        volatile boolean down;
        private SocketChannel channel;

        Link(int remote) {
            this.remote = remote;
            start("gm-wire-out-" + node + "-" + remote, this::run);
        }

        private void run() {
            try {
                channel = connect(remote);
                start("gm-wire-answers-" + node + "-" + remote, this::readAnswers);
                while (!closed) {
                    ByteBuffer frame = frames.take();
                    writeFully(channel, frame);
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                if (!closed) {
                    goDown();
                }
            }
        }

        private void readAnswers() {
            ByteBuffer answer = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
            try {
                while (!closed) {
                    answer.clear();
                    readFully(channel, answer);
                    EmulatedGmPort port = ports.get(answer.getInt(0));
                    if (port != null) {
                        port.remoteSendFailed(answer.getLong(4));
                    }
                }
            } catch (IOException e) {
                if (!closed) {
                    goDown();
                }
            }
        }

        /** The remote node is gone: every port fails what it sent there. */
        private void goDown() {
            down = true;
            ports.values().forEach(port -> port.remoteNodeDown(remote));
        }

        void close() {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // closing anyway
            }
            frames.add(ByteBuffer.allocate(0)); // wakes the writer, which then sees closed
        }
    }

    private SocketChannel connect(int remote) throws IOException {
        List<InetSocketAddress> candidates = remotes.get(remote);
        try {
            return Sockets.connect(candidates, CONNECT_TIMEOUT_MS, MAGIC, node, jobKey);
        } catch (IOException e) {
            System.err.println("btl/gm: the emulated GM NIC of node " + node + " cannot reach node " + remote + " at "
                    + candidates + ": " + e);
            throw e;
        }
    }

    // ---- receiving --------------------------------------------------------------------------

    private void acceptLoop() {
        IOException failure = Sockets.acceptAll(server, channel -> {
            accepted.add(channel);
            start("gm-wire-agent-" + node, () -> serve(channel));
        });
        if (failure != null && !closed) {
            System.err.println("btl/gm: node " + node + " stops accepting remote nodes: " + failure);
        }
    }

    /** Hands each packet of one remote node to the port it is for, in the order sent. */
    private void serve(SocketChannel channel) {
        try (channel) {
            int sender = Sockets.introduction(channel, MAGIC, jobKey);
            if (sender < 1) {
                System.err.println("btl/gm: node " + node + " refused a connection without the job's key");
                return;
            }
            ByteBuffer length = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
            ByteBuffer answer = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
            while (!closed) {
                length.clear();
                readFully(channel, length);
                ByteBuffer frame = ByteBuffer.allocate(length.getInt(0)).order(ByteOrder.nativeOrder());
                readFully(channel, frame);
                byte kind = frame.get(0);
                int portId = frame.getInt(1);
                long sendId = frame.getLong(5);
                long word = frame.getLong(13);
                byte[] payload = new byte[frame.capacity() - FRAME_HEADER];
                frame.get(FRAME_HEADER, payload);
                EmulatedGmPort port = ports.get(portId);
                boolean taken = port != null && port.deliverRemote(sender, kind, sendId, word, payload);
                if (!taken && kind != EmulatedGmPort.ACK) {
                    answer.clear().putInt(portId).putLong(sendId).flip();
                    writeFully(channel, answer);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the sender went away: its own side reports it
        } finally {
            accepted.remove(channel);
        }
    }

    /** Closes the sockets and waits for the wire's threads to end. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.values().forEach(Link::close);
        for (SocketChannel channel : List.copyOf(accepted)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Thread thread : List.copyOf(threads)) {
            thread.interrupt();
            try {
                thread.join(java.time.Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
