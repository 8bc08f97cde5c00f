package org.jmca.coll.mcast;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * IP multicast over UDP on one interface. Two sockets: one bound to the job's multicast port
 * (shared with the job's other processes on the host), which joins the communicators' groups,
 * and one bound to an ephemeral port of the interface's address, which sends everything and
 * receives what is sent to this process alone (acknowledgements, retransmissions).
 */
final class UdpCarrier implements Carrier {
    private static final int SOCKET_BUFFER = 4 << 20;

    private final NetworkInterface nic;
    private final Inet4Address local;
    private final int port;
    private final DatagramChannel groups;
    private final DatagramChannel direct;
    private final long address;
    private final Map<Integer, MembershipKey> memberships = new HashMap<>();
    private final Map<Integer, InetSocketAddress> groupTargets = new HashMap<>();
    private final Map<Long, InetSocketAddress> unicastTargets = new HashMap<>();
    /** Datagrams the kernel refused (its send buffer full): lost, as the network may lose them. */
    long refused;

    private UdpCarrier(NetworkInterface nic, Inet4Address local, int port) throws IOException {
        this.nic = nic;
        this.local = local;
        this.port = port;
        groups = DatagramChannel.open(StandardProtocolFamily.INET);
        direct = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            groups.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            groups.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            groups.bind(new InetSocketAddress(port));
            groups.configureBlocking(false);
            direct.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            direct.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
            direct.setOption(StandardSocketOptions.IP_MULTICAST_IF, nic);
            direct.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            direct.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            direct.bind(new InetSocketAddress(local, 0));
            direct.configureBlocking(false);
            int directPort = ((InetSocketAddress) direct.getLocalAddress()).getPort();
            address = (Integer.toUnsignedLong(toInt(local)) << 16) | directPort;
        } catch (IOException | RuntimeException e) {
            groups.close();
            direct.close();
            throw e;
        }
    }

    /**
     * Opens the carrier on {@code nic}'s address {@code local} and checks that a datagram sent to a
     * group comes back to this host; throws {@link IOException} saying why not.
     *
     * @param loopback whether this host's own sockets receive what it multicasts: needed only when
     *                 several ranks of a host take the multicast (not SMP-aware); otherwise its
     *                 kernel would deliver every datagram back to the sender for nothing
     */
    static UdpCarrier open(NetworkInterface nic, Inet4Address local, int port, boolean loopback) throws IOException {
        if (!nic.supportsMulticast()) {
            throw new IOException("interface " + nic.getName() + " does not support multicast");
        }
        UdpCarrier carrier = new UdpCarrier(nic, local, port);
        try {
            carrier.probe();
            carrier.direct.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, loopback);
            return carrier;
        } catch (IOException | RuntimeException e) {
            carrier.close();
            throw e;
        }
    }

    /** Sends a datagram to a group of its own (in 239.255.0.0/16) and waits up to a second for it to come back. */
    private void probe() throws IOException {
        long token = ThreadLocalRandom.current().nextLong();
        InetAddress group = InetAddress.getByAddress(new byte[] {(byte) 239, (byte) 255, (byte) (token >>> 8),
            (byte) token});
        MembershipKey membership = groups.join(group, nic);
        try {
            ByteBuffer in = ByteBuffer.allocate(64);
            ByteBuffer out = ByteBuffer.allocate(8).putLong(0, token);
            long deadline = System.nanoTime() + 1_000_000_000L;
            long nextSend = 0;
            while (System.nanoTime() < deadline) {
                if (System.nanoTime() >= nextSend) {
                    out.clear();
                    direct.send(out, new InetSocketAddress(group, port));
                    nextSend = System.nanoTime() + 100_000_000L;
                }
                in.clear();
                if (groups.receive(in) != null && in.position() == 8 && in.getLong(0) == token) {
                    return;
                }
                Thread.onSpinWait();
            }
            throw new IOException("a datagram multicast on " + nic.getName() + " (" + local.getHostAddress()
                    + ") to port " + port + " did not come back within 1 s: no multicast route");
        } finally {
            membership.drop();
        }
    }

    private static int toInt(Inet4Address address) {
        byte[] b = address.getAddress();
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int maxDatagram() {
        return Packet.MAX_DATAGRAM;
    }

    /** Group {@code group}'s address: in 239.64.0.0/10, away from the probe's 239.255.0.0/16. */
    private static InetAddress addressOf(int group) {
        int h = group * 0x9E3779B1;
        try {
            return InetAddress.getByAddress(new byte[] {(byte) 239, (byte) (64 | (h >>> 16) & 0x3f), (byte) (h >>> 8),
                (byte) h});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void join(int group) {
        if (!memberships.containsKey(group)) {
            InetAddress address = addressOf(group);
            try {
                memberships.put(group, groups.join(address, nic));
            } catch (IOException e) {
                throw new UncheckedIOException("coll/mcast: cannot join " + address.getHostAddress() + " on "
                        + nic.getName() + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void leave(int group) {
        MembershipKey key = memberships.remove(group);
        if (key != null) {
            key.drop();
        }
    }

    @Override
    public void multicast(int group, ByteBuffer packet) {
        send(packet, groupTargets.computeIfAbsent(group, g -> new InetSocketAddress(addressOf(g), port)));
    }

    @Override
    public void unicast(long address, ByteBuffer packet) {
        send(packet, unicastTargets.computeIfAbsent(address, UdpCarrier::socketAddress));
    }

    private static InetSocketAddress socketAddress(long address) {
        int ip = (int) (address >>> 16);
        byte[] bytes = {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip};
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), (int) (address & 0xffff));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void send(ByteBuffer packet, InetSocketAddress target) {
        try {
            if (direct.send(packet, target) == 0) {
                refused++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("coll/mcast: cannot send to " + target + " from " + description() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean receive(ByteBuffer into) {
        try {
            into.clear();
            if (direct.receive(into) != null || groups.receive(into) != null) {
                into.flip();
                return true;
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("coll/mcast: cannot receive on " + description() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String description() {
        return "UDP multicast on " + nic.getName() + " (" + local.getHostAddress() + "), port " + port;
    }

    @Override
    public void close() {
        memberships.values().forEach(MembershipKey::drop);
        memberships.clear();
        try {
            groups.close();
        } catch (IOException ignored) {
            // closing: nothing to do about it
        }
        try {
            direct.close();
        } catch (IOException ignored) {
            // closing: nothing to do about it
        }
    }
}
