package org.jmca.rte.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.jmca.rte.PeerRecord;
import org.jmca.rte.WireUpProtocol;

/**
 * jmpirun's side of the wire-up: a server (on loopback, or on every address when ranks run on
 * other hosts) that each rank joins with the job key,
 * that collects every rank's values and answers the exchange once all have arrived (a fence),
 * and that hears of finalize and abort. One thread per rank.
 *
 * <p>Platform threads, not virtual ones: a virtual thread's blocking read parks on the JDK's
 * poller, a platform thread that stays in {@code epoll_wait} for the life of the JVM, and the JVM
 * waits about 0.3 s at exit for threads in native code, which was a quarter of the time of a
 * short job. A platform thread blocked in {@code accept} or {@code read} leaves once its socket
 * is closed.
 */
final class JobServer implements AutoCloseable {

    /** What the server tells jmpirun. */
    interface Events {
        void aborted(int rank, int code, String message);

        void exchangeTimedOut(List<Integer> missing, long seconds);
    }

    /** How long a connection may take to say who it is. */
    private static final int HELLO_TIMEOUT_MILLIS = 30_000;

    private final int size;
    private final String jobKeyHex;
    private final long timeoutNanos;
    private final Events events;
    private final Consumer<String> log;
    private final ServerSocket server;
    private final boolean[] finalized;
    private final boolean[] joined;
    /** Whether the rank's connection was read to its end: then what it said before exiting is known. */
    private final boolean[] readToEnd;
    private final List<PeerRecord> arrived = new ArrayList<>();
    private final PeerRecord[] records;
    private final DataOutputStream[] outputs;
    private long firstArrivalNanos;
    private volatile boolean closed;

    /** @param remote whether ranks on other hosts will connect: then it listens on every address, not loopback only */
    JobServer(int size, String jobKeyHex, long timeoutSeconds, boolean remote, Events events, Consumer<String> log)
            throws IOException {
        this.size = size;
        this.jobKeyHex = jobKeyHex;
        this.timeoutNanos = timeoutSeconds * 1_000_000_000L;
        this.events = events;
        this.log = log;
        this.finalized = new boolean[size];
        this.joined = new boolean[size];
        this.readToEnd = new boolean[size];
        this.records = new PeerRecord[size];
        this.outputs = new DataOutputStream[size];
        this.server = new ServerSocket();
        server.bind(remote ? new InetSocketAddress(0) : new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), size);
        Thread.ofPlatform().daemon().name("jmpirun-accept").start(this::acceptLoop);
        Thread.ofPlatform().daemon().name("jmpirun-timeout").start(this::watchTimeout);
    }

    /** "127.0.0.1:port", for the environment of the ranks on this host. */
    String address() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /** Every address of this host with the server's port, for ranks on other hosts. */
    String remoteAddress() {
        return org.jmca.rte.Reach.publish(server.getLocalPort());
    }

    /**
     * Whether the rank finalized, once what it sent before it exited has been read: its exit can
     * be seen before the thread serving its connection has read its FINALIZED, the last thing it
     * sends. Waits at most {@code millis} for the connection's end.
     */
    synchronized boolean finalizedOnceRead(int rank, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!finalized[rank] && !readToEnd[rank] && System.nanoTime() < deadline) {
            wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        return finalized[rank];
    }

    /** True once the rank has connected (it called MPI.Init). */
    synchronized boolean hasJoined(int rank) {
        return joined[rank];
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                Thread.ofPlatform().daemon().name("jmpirun-rank").start(() -> serve(socket));
            } catch (IOException e) {
                if (!closed) {
                    log.accept("jmpirun: the wire-up server stopped: " + e.getMessage());
                }
                return;
            }
        }
    }

    private void serve(Socket socket) {
        int rank = -1;
        boolean joinedHere = false;
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(HELLO_TIMEOUT_MILLIS); // a stranger that says nothing does not keep a thread
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            if (in.readInt() != WireUpProtocol.MAGIC
                    || !MessageDigest.isEqual(in.readUTF().getBytes(), jobKeyHex.getBytes())) {
                log.accept("jmpirun: refused a wire-up connection from " + socket.getRemoteSocketAddress()
                        + ": it did not present this job's key");
                return;
            }
            rank = in.readInt();
            in.readLong();
            if (rank < 0 || rank >= size) {
                log.accept("jmpirun: refused a wire-up connection claiming rank " + rank);
                return;
            }
            synchronized (this) {
                if (joined[rank]) {
                    log.accept("jmpirun: refused a second wire-up connection claiming rank " + rank);
                    return;
                }
                outputs[rank] = out;
                joined[rank] = true;
                joinedHere = true;
            }
            socket.setSoTimeout(0); // a rank may compute for hours between two messages
            while (true) {
                byte type = in.readByte();
                switch (type) {
                    case WireUpProtocol.EXCHANGE -> arrive(rank, in.readUTF(), WireUpProtocol.readMap(in));
                    case WireUpProtocol.FINALIZED -> {
                        synchronized (this) {
                            finalized[rank] = true;
                        }
                    }
                    case WireUpProtocol.ABORT -> events.aborted(rank, in.readInt(), in.readUTF());
                    default -> throw new IOException("unknown message type " + type + " from rank " + rank);
                }
            }
        } catch (EOFException e) {
            // The rank closed its connection: at exit, or it died (jmpirun sees that as its exit).
        } catch (IOException e) {
            if (!closed) {
                log.accept("jmpirun: wire-up connection of rank " + rank + " failed: " + e.getMessage());
            }
        } finally {
            synchronized (this) {
                if (joinedHere) {
                    readToEnd[rank] = true;
                    notifyAll();
                }
            }
        }
    }

    private synchronized void arrive(int rank, String hostname, Map<String, String> values) throws IOException {
        if (records[rank] != null && arrived.contains(records[rank])) {
            throw new IOException("rank " + rank + " sent its wire-up exchange twice");
        }
        if (arrived.isEmpty()) {
            firstArrivalNanos = System.nanoTime();
        }
        records[rank] = new PeerRecord(rank, hostname, values);
        arrived.add(records[rank]);
        if (arrived.size() < size) {
            return;
        }
        List<PeerRecord> all = List.of(records);
        for (DataOutputStream out : outputs) {
            WireUpProtocol.writeRecords(out, all);
            out.flush();
        }
        arrived.clear();
    }

    private void watchTimeout() {
        while (!closed) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            List<Integer> missing;
            synchronized (this) {
                if (arrived.isEmpty() || System.nanoTime() - firstArrivalNanos < timeoutNanos) {
                    continue;
                }
                TreeSet<Integer> absent = new TreeSet<>();
                for (int r = 0; r < size; r++) {
                    absent.add(r);
                }
                arrived.forEach(record -> absent.remove(record.rank()));
                missing = List.copyOf(absent);
                arrived.clear();
            }
            events.exchangeTimedOut(missing, timeoutNanos / 1_000_000_000L);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // Shutting down.
        }
    }
}
