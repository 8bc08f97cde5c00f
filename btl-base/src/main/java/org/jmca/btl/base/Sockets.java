package org.jmca.btl.base;

import java.io.EOFException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the emulated devices' socket wires share (the software verbs device's and the emulated GM
 * NIC's): the address a listening socket is published under, reading it back, connections that
 * introduce themselves with the job's key, whole reads and writes.
 */
public final class Sockets {
    private Sockets() {
    }

    /** {@code "10.0.0.2,127.0.0.1:40123"}: this host's IPv4 addresses (loopback last) and the server's port. */
    public static String publishedAddress(ServerSocketChannel server) throws IOException {
        return String.join(",", hostAddresses()) + ":" + ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    /** The socket addresses of a {@link #publishedAddress}, in the order to try them. */
    public static List<InetSocketAddress> candidates(String published) {
        int colon = published.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("a wire address is hosts:port, not " + published);
        }
        int port = Integer.parseInt(published.substring(colon + 1));
        List<InetSocketAddress> candidates = new ArrayList<>();
        for (String host : published.substring(0, colon).split(",")) {
            candidates.add(new InetSocketAddress(host, port));
        }
        return candidates;
    }

    /**
     * Connects to the first of {@code candidates} that answers and introduces this end: {@code
     * magic}, its {@code id} and the job's key, which the other end checks with {@link #introduction}.
     */
    public static SocketChannel connect(List<InetSocketAddress> candidates, int timeoutMillis, long magic, int id,
                                        byte[] key) throws IOException {
        IOException last = new IOException("no address to try");
        for (InetSocketAddress candidate : candidates) {
            try {
                SocketChannel channel = SocketChannel.open();
                channel.socket().connect(candidate, timeoutMillis);
                channel.socket().setTcpNoDelay(true);
                ByteBuffer hello = ByteBuffer.allocate(16 + key.length);
                hello.putLong(magic).putInt(id).putInt(key.length).put(key).flip();
                writeFully(channel, hello);
                return channel;
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * Reads a {@link #connect} introduction: the other end's id, or -1 if it is not of this job
     * (another magic, or not the job's key).
     */
    public static int introduction(SocketChannel channel, long magic, byte[] key) throws IOException {
        return introduction(channel, magic, key, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /**
     * Reads a {@link #connect} introduction as {@link #introduction(SocketChannel, long, byte[])}
     * does, and checks the id it presents too: a connection with the job's key whose id is not
     * one of the job's ({@code first..last}) is corrupt.
     *
     * @throws Refused for an id outside {@code first..last}
     */
    public static int introduction(SocketChannel channel, long magic, byte[] key, int first, int last)
            throws IOException {
        ByteBuffer hello = ByteBuffer.allocate(16);
        readFully(channel, hello);
        if (hello.getLong(0) != magic || hello.getInt(12) != key.length) {
            return -1;
        }
        ByteBuffer theirs = ByteBuffer.allocate(key.length);
        readFully(channel, theirs);
        if (!MessageDigest.isEqual(theirs.array(), key)) {
            return -1;
        }
        int id = hello.getInt(8);
        if (id < first || id > last) {
            throw new Refused("refused a connection from peer " + id + " (the id it presented), outside the job's "
                    + first + ".." + last);
        }
        return id;
    }

    /** A connection that showed the job's key but not an id of the job. */
    public static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * Accepts connections until {@code server} closes, handing each (with TCP_NODELAY) to
     * {@code serve}; returns the exception that ended it, null once the server was closed.
     */
    public static IOException acceptAll(ServerSocketChannel server, Consumer<SocketChannel> serve) {
        while (true) {
            try {
                SocketChannel channel = server.accept();
                channel.socket().setTcpNoDelay(true);
                serve.accept(channel);
            } catch (IOException e) {
                return server.isOpen() ? e : null;
            }
        }
    }

    public static void readFully(SocketChannel channel, ByteBuffer into) throws IOException {
        while (into.hasRemaining()) {
            if (channel.read(into) < 0) {
                throw new EOFException();
            }
        }
    }

    public static void writeFully(SocketChannel channel, ByteBuffer from) throws IOException {
        while (from.hasRemaining()) {
            channel.write(from);
        }
    }

    /** This host's IPv4 addresses on interfaces that are up, loopback last. */
    public static List<String> hostAddresses() throws SocketException {
        List<String> addresses = new ArrayList<>();
        List<String> loopback = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address) {
                    (nic.isLoopback() ? loopback : addresses).add(address.getHostAddress());
                }
            }
        }
        addresses.addAll(loopback);
        return addresses;
    }
}
