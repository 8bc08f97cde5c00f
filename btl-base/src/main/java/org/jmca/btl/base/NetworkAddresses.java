package org.jmca.btl.base;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jmca.mca.McaException;

/**
 * The IPv4 addresses a component uses, from an include or an exclude list ({@code btl_tcp_if_include},
 * {@code coll_mcast_if_include}): each entry an interface name ({@code eth0}) or a subnet in CIDR
 * form ({@code 10.0.0.0/8}). Only interfaces that are up count.
 */
public final class NetworkAddresses {

    /** One usable address: its interface and whether it is a loopback address. */
    public record Address(String interfaceName, InetAddress address) {
        public boolean loopback() {
            return address.isLoopbackAddress();
        }
    }

    private NetworkAddresses() {
    }

    /** Every IPv4 address of every interface that is up. */
    public static List<Address> all() {
        List<Address> result = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address) {
                        result.add(new Address(nic.getName(), a.getAddress()));
                    }
                }
            }
        } catch (SocketException e) {
            throw new McaException("cannot list network interfaces: " + e.getMessage(), e);
        }
        return result;
    }

    /**
     * The addresses the lists select.
     *
     * @param parameter the lists' parameter names without their ending: {@code btl_tcp_if}
     *
     * @throws McaException when both lists are set, or an entry matches nothing, naming the entry and what exists
     */
    public static List<Address> select(List<Address> available, String parameter, List<String> include, String includeSource,
                                List<String> exclude, String excludeSource) {
        if (!include.isEmpty() && !exclude.isEmpty()) {
            throw new McaException(parameter + "_include=" + String.join(",", include) + " (" + includeSource
                    + ") and " + parameter + "_exclude=" + String.join(",", exclude) + " (" + excludeSource
                    + ") are both set; set only one");
        }
        List<String> entries = include.isEmpty() ? exclude : include;
        for (String entry : entries) {
            if (available.stream().noneMatch(a -> matches(entry, a))) {
                throw new McaException(parameter + (include.isEmpty() ? "_exclude=" : "_include=")
                        + entry + " (" + (include.isEmpty() ? excludeSource : includeSource)
                        + ") matches no interface that is up; interfaces: " + describe(available));
            }
        }
        return available.stream()
                .filter(a -> include.isEmpty() ? exclude.stream().noneMatch(e -> matches(e, a))
                        : include.stream().anyMatch(e -> matches(e, a)))
                .toList();
    }

    public static String describe(List<Address> addresses) {
        return String.join(", ", addresses.stream()
                .map(a -> a.interfaceName() + " " + a.address().getHostAddress()).toList());
    }

    /** True if the entry (a name or CIDR subnet) matches the address. */
    public static boolean matches(String entry, Address address) {
        int slash = entry.indexOf('/');
        if (slash < 0) {
            return entry.equals(address.interfaceName());
        }
        try {
            byte[] network = InetAddress.getByName(entry.substring(0, slash)).getAddress();
            int bits = Integer.parseInt(entry.substring(slash + 1));
            byte[] candidate = address.address().getAddress();
            if (network.length != candidate.length || bits < 0 || bits > 8 * network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((network[i / 8] & mask) != (candidate[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | NumberFormatException e) {
            throw new McaException("'" + entry + "' is neither an interface name nor a subnet like 10.0.0.0/8");
        }
    }
}
