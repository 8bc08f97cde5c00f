package org.jmca.btl.tcp;

import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.base.NetworkAddresses;
import org.jmca.mca.contract.BtlContractTest;
import org.jmca.mca.btl.BtlModule;

class TcpBtlContractTest extends BtlContractTest {
    static final byte[] KEY = "the job key of this test".getBytes();

    static TcpSettings settings() {
        return new TcpSettings(4096, 16 * 1024, 64 * 1024, 10_000_000_000L, 100);
    }

    static List<NetworkAddresses.Address> loopback() {
        return NetworkAddresses.select(NetworkAddresses.all(), "btl_tcp_if", List.of("lo"), "test", List.of(), "test");
    }

    @Override
    protected List<BtlModule> createConnected(int size) {
        List<BtlModule> modules = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            modules.add(new TcpBtlModule(r, "localhost", KEY, loopback(), settings(), line -> { }));
        }
        return modules;
    }
}
