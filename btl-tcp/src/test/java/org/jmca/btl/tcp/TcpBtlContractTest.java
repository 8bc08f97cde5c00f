package org.jmca.btl.tcp;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.NetworkAddresses;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.Test;

class TcpBtlContractTest extends BtlContractTest {
    static final byte[] KEY = "the job key of this test".getBytes();

    static TcpSettings settings() {
        return new TcpSettings(new BtlProperties(100, 50_000, 10_000, 4096, 16 * 1024,
                EnumSet.of(BtlProperties.Flag.SEND)), 64 * 1024, 10_000_000_000L);
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

    /**
     * A process that dies says no GOODBYE: the kernel just closes its sockets. So each of its
     * connections is failed here (closed, nothing sent on it), and only then is the module
     * finalized, which closes its listening sockets with no connection left to say goodbye on.
     */
    @Override
    protected void die(BtlModule module, List<BtlEndpoint> itsEndpoints) {
        for (BtlEndpoint endpoint : itsEndpoints) {
            if (endpoint instanceof TcpEndpoint tcp) {
                tcp.fail();
            }
        }
        module.finalizeModule();
    }
}
