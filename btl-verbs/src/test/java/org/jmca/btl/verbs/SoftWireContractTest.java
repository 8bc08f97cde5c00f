package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The verbs contract against the software device between two hosts: each port in a directory
 * of its own (another host's session directory) and on a host of another name, so every packet,
 * RDMA request and atomic goes over the socket wire.
 */
class SoftWireContractTest extends VerbsContract {
    private static final byte[] KEY = "a job's key".getBytes();
    private Path hostA;
    private Path hostB;
    private SoftVerbs first;
    private SoftVerbs second;
    private boolean secondDied;

    @Override
    protected Verbs[] openPair() throws Exception {
        hostA = Files.createTempDirectory("verbs-host-a");
        hostB = Files.createTempDirectory("verbs-host-b");
        first = SoftVerbs.open(hostA, 1, 2, 1 << 16, new SoftFaults(1, 0, 0, 0),
                new SoftVerbs.Network("host-a", KEY, false));
        second = SoftVerbs.open(hostB, 2, 2, 1 << 16, SoftFaults.NONE, new SoftVerbs.Network("host-b", KEY, false));
        first.learnPort(2, "host-b", second.portAddress());
        second.learnPort(1, "host-a", first.portAddress());
        return new Verbs[] {first, second};
    }

    @Override
    protected void closePair() throws Exception {
        first.close();
        if (!secondDied) {
            second.close();
        }
        Files.deleteIfExists(hostA);
        Files.deleteIfExists(hostB);
    }

    @Override
    protected boolean peerDies(Verbs v) {
        ((SoftVerbs) v).close();
        secondDied = true;
        return true;
    }

    @Override
    protected boolean linkDown(Verbs v, boolean down) {
        ((SoftVerbs) v).faults().linkDown(down);
        return true;
    }

    @Test
    void bothPortsReachEachOtherOnlyThroughTheWire() {
        assertThat(first.isRemote(2)).isTrue();
        assertThat(second.isRemote(1)).isTrue();
        assertThat(first.portAddress()).containsKey(SoftVerbs.WIRE_KEY);
    }

    @Test
    void aPortWithoutTheJobsKeyIsRefusedAndSeesTheRemotePortGoDown() throws Exception {
        Path hostC = Files.createTempDirectory("verbs-host-c");
        try (SoftVerbs stranger = SoftVerbs.open(hostC, 1, 2, 1 << 16, SoftFaults.NONE,
                new SoftVerbs.Network("host-c", "another key".getBytes(), false))) {
            stranger.learnPort(2, "host-b", second.portAddress());
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (stranger.portActive(2)) {
                assertThat(System.nanoTime()).as("the refused connection closes").isLessThan(deadline);
                Thread.sleep(5);
            }
        } finally {
            Files.deleteIfExists(hostC);
        }
    }
}
