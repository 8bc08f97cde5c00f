package org.jmca.coll.mcast;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.jmca.btl.base.NetworkAddresses;

/**
 * The interface the tests multicast on (the first that is up, not loopback and multicast-capable,
 * as the component chooses), and a hook that skips a test, saying why, where there is none.
 */
final class MulticastHere implements SkipExecutionHook {
    /**
     * Ports start at random below the kernel's ephemeral range: test JVMs of concurrent builds on
     * one host (containers often give them the same pid) must not walk the same ports in step.
     */
    private static final AtomicInteger PORTS = new AtomicInteger(20_000 + new SecureRandom().nextInt(12_000));
    /** The port every carrier of the current test case shares (set per case by {@link #nextPort()}). */
    private static volatile int port = PORTS.get();
    private static NetworkAddresses.Address address;
    private static final String UNAVAILABLE = check();

    private static String check() {
        for (NetworkAddresses.Address a : NetworkAddresses.all()) {
            try {
                NetworkInterface nic = NetworkInterface.getByName(a.interfaceName());
                if (a.address() instanceof Inet4Address && !a.loopback() && nic.supportsMulticast()) {
                    address = a;
                    try (UdpCarrier probe = open()) {
                        return null;
                    } catch (IOException e) {
                        address = null;
                        return "no multicast here: " + e.getMessage();
                    }
                }
            } catch (SocketException e) {
                // try the next
            }
        }
        return "no IPv4 interface is up, multicast-capable and not loopback";
    }

    /** A carrier on the test interface, on a port of this test's own. */
    static UdpCarrier open() throws IOException {
        // every test rank is on this host, whatever host names the test gives them
        return UdpCarrier.open(NetworkInterface.getByName(address.interfaceName()), (Inet4Address) address.address(),
                port(), true);
    }

    static int port() {
        return port;
    }

    /** A new port for the next test case, so that its datagrams never meet the last case's. */
    static void nextPort() {
        port = PORTS.incrementAndGet();
    }

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        if (UNAVAILABLE != null) {
            System.err.println("coll/mcast tests skipped: " + UNAVAILABLE);
            return SkipResult.skip(UNAVAILABLE);
        }
        return SkipResult.doNotSkip();
    }
}
