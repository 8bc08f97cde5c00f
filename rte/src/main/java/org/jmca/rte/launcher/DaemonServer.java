package org.jmca.rte.launcher;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.jmca.rte.Reach;

/**
 * Where the daemons of remote hosts connect back to jmpirun: a server on every address of this
 * host that hands each daemon presenting the job's key to its {@link RemoteHost}.
 */
final class DaemonServer implements AutoCloseable {
    private final ServerSocket server;
    private final String keyHex;
    private final List<RemoteHost> hosts;
    private final RemoteHost.Events events;
    private final Consumer<String> log;
    private volatile boolean closed;

    DaemonServer(String keyHex, List<RemoteHost> hosts, RemoteHost.Events events, Consumer<String> log)
            throws IOException {
        this.keyHex = keyHex;
        this.hosts = hosts;
        this.events = events;
        this.log = log;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(0), 64);
        Thread.ofPlatform().daemon().name("jmpirun-daemons").start(this::acceptLoop);
    }

    /** Every address of this host with the server's port, for the daemons. */
    String address() {
        return Reach.publish(server.getLocalPort());
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                admit(socket);
            } catch (IOException e) {
                if (!closed) {
                    log.accept("jmpirun: the daemon server stopped: " + e.getMessage());
                }
                return;
            }
        }
    }

    private void admit(Socket socket) {
        try {
            socket.setSoTimeout(10_000);
            DataInputStream in = RemoteHost.input(socket);
            if (in.readInt() != DaemonProtocol.MAGIC) {
                throw new IOException("not a JMCA daemon");
            }
            RemoteHost.DaemonHello hello = RemoteHost.readHello(in);
            if (!MessageDigest.isEqual(hello.key().getBytes(StandardCharsets.UTF_8),
                    keyHex.getBytes(StandardCharsets.UTF_8)) || hello.host() < 0 || hello.host() >= hosts.size()
                    || hosts.get(hello.host()) == null) {
                throw new IOException("it did not present this job's key and a host of the job");
            }
            socket.setSoTimeout(0);
            hosts.get(hello.host()).attach(socket, hello.pid(), in, events);
        } catch (IOException e) {
            log.accept("jmpirun: refused a daemon connection from " + socket.getRemoteSocketAddress() + ": "
                    + e.getMessage());
            try {
                socket.close();
            } catch (IOException ignored) {
                // refused
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
