package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.jmca.mca.McaException;
import org.junit.jupiter.api.Test;

class NetworkAddressesTest {
    private static final List<NetworkAddresses.Address> AVAILABLE = List.of(
            address("lo", "127.0.0.1"), address("eth0", "10.1.2.3"), address("eth1", "192.168.7.9"));

    private static NetworkAddresses.Address address(String name, String ip) {
        try {
            return new NetworkAddresses.Address(name, InetAddress.getByName(ip));
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(List<NetworkAddresses.Address> addresses) {
        return addresses.stream().map(NetworkAddresses.Address::interfaceName).toList();
    }

    @Test
    void includeByNameOrSubnet() {
        assertThat(names(NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of("eth1", "10.0.0.0/8"), "cli", List.of(), "")))
                .containsExactly("eth0", "eth1");
    }

    @Test
    void excludeByNameOrSubnet() {
        assertThat(names(NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of(), "", List.of("lo", "192.168.0.0/16"), "env")))
                .containsExactly("eth0");
        assertThat(names(NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of(), "", List.of(), ""))).hasSize(3);
    }

    @Test
    void bothListsOrAnEntryMatchingNothingAreErrors() {
        assertThatThrownBy(() -> NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of("lo"), "cli", List.of("eth0"), "env"))
                .isInstanceOf(McaException.class).hasMessageContaining("are both set");
        assertThatThrownBy(() -> NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of("eth9"), "command line --mca btl_tcp_if_include",
                List.of(), ""))
                .hasMessageContaining("btl_tcp_if_include=eth9 (command line --mca btl_tcp_if_include) matches no interface")
                .hasMessageContaining("lo 127.0.0.1, eth0 10.1.2.3, eth1 192.168.7.9");
        assertThatThrownBy(() -> NetworkAddresses.select(AVAILABLE, "btl_tcp_if", List.of("10.0.0.0/99"), "cli", List.of(), ""))
                .hasMessageContaining("matches no interface");
    }
}
