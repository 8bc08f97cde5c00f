package org.jmca.rte;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How processes of a job on several hosts reach a server of jmpirun's: it publishes every IPv4
 * address of its host ({@code "10.0.0.5,192.168.1.2,127.0.0.1:40123"}, loopback last), and a
 * process tries them, those on a subnet it is attached to first.
 */
public final class Reach {
    private Reach() {
    }

    /** This host's IPv4 addresses on interfaces that are up, loopback last. */
    public static List<InetAddress> localAddresses() {
        List<InetAddress> addresses = new ArrayList<>();
        List<InetAddress> loopback = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        (a.isLoopbackAddress() ? loopback : addresses).add(a);
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list this host's network interfaces: " + e.getMessage(), e);
        }
        addresses.addAll(loopback);
        return addresses;
    }

    /** {@code "a,b,...:port"}: every address of this host, for a server listening on all of them. */
    public static String publish(int port) {
        return String.join(",", localAddresses().stream().map(InetAddress::getHostAddress).toList()) + ":" + port;
    }

    /**
     * Connects to the first address of {@code published} that answers, trying first those on a
     * subnet this host is attached to.
     *
     * @throws IOException naming every address tried, when none answers
     */
    public static Socket connect(String published, int timeoutMillis) throws IOException {
        int colon = published.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("'" + published + "' is not hosts:port");
        }
        int port = Integer.parseInt(published.substring(colon + 1));
        List<InetAddress> candidates = new ArrayList<>();
        for (String host : published.substring(0, colon).split(",")) {
            candidates.add(InetAddress.getByName(host));
        }
        List<InterfaceAddress> attached = attachedSubnets();
        candidates.sort((a, b) -> Boolean.compare(!onSubnet(a, attached), !onSubnet(b, attached)));
        IOException last = new IOException("no address to try");
        for (InetAddress candidate : candidates) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(candidate, port), timeoutMillis);
                socket.setTcpNoDelay(true);
                return socket;
            } catch (IOException e) {
                socket.close();
                last = new IOException(candidate.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
            }
        }
        throw new IOException("none of " + published + " answered (last: " + last.getMessage() + ")", last);
    }

    private static List<InterfaceAddress> attachedSubnets() {
        List<InterfaceAddress> subnets = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nic.isUp()) {
                    nic.getInterfaceAddresses().stream().filter(a -> a.getAddress() instanceof Inet4Address)
                            .forEach(subnets::add);
                }
            }
        } catch (SocketException e) {
            // no preference then
        }
        return subnets;
    }

    private static boolean onSubnet(InetAddress address, List<InterfaceAddress> subnets) {
        byte[] a = address.getAddress();
        for (InterfaceAddress subnet : subnets) {
            byte[] s = subnet.getAddress().getAddress();
            int bits = subnet.getNetworkPrefixLength();
            boolean match = a.length == s.length;
            for (int i = 0; match && i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                match = (a[i / 8] & mask) == (s[i / 8] & mask);
            }
            if (match) {
                return true;
            }
        }
        return false;
    }
}
