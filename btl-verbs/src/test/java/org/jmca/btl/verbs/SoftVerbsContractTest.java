package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jmca.btl.verbs.Ibv.QpType;
import org.jmca.btl.verbs.Ibv.WcStatus;
import org.junit.jupiter.api.Test;

/** The verbs contract against the software device, two ports in one process. */
class SoftVerbsContractTest extends VerbsContract {
    private Path fabric;
    private SoftVerbs first;
    private SoftVerbs second;
    private boolean secondDied;

    @Override
    protected Verbs[] openPair() throws Exception {
        fabric = Files.createTempDirectory("verbs-soft");
        first = SoftVerbs.open(fabric, 1, 2, 1 << 16, new SoftFaults(1, 0, 0, 0));
        second = SoftVerbs.open(fabric, 2, 2, 1 << 16, SoftFaults.NONE);
        return new Verbs[] {first, second};
    }

    @Override
    protected void closePair() throws Exception {
        first.close();
        if (!secondDied) {
            second.close();
        }
        Files.deleteIfExists(fabric);
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
    void seededLossDropsAboutTheAskedShareOfDatagramsAndTheSameSeedDropsTheSameOnes() throws Exception {
        List<Long> once = lossRun(7);
        assertThat(once.size()).isBetween(120, 180);
        assertThat(lossRun(7)).isEqualTo(once);
    }

    /** Sends 300 datagrams with 50 % loss from a fresh pair; returns the ids that arrived. */
    private List<Long> lossRun(long seed) throws Exception {
        Path dir = Files.createTempDirectory("verbs-soft-loss");
        try (SoftVerbs lossy = SoftVerbs.open(dir, 1, 2, 1 << 16, new SoftFaults(seed, 0.5, 0, 0));
             SoftVerbs peer = SoftVerbs.open(dir, 2, 2, 1 << 16, SoftFaults.NONE)) {
            var pdS = lossy.allocPd();
            var pdR = peer.allocPd();
            var cqS = lossy.createCq(512);
            var cqR = peer.createCq(512);
            var s = pdS.createQp(QpType.UD, cqS, cqS, 512, 8);
            var r = pdR.createQp(QpType.UD, cqR, cqR, 8, 512);
            toUdRts(s);
            toUdRts(r);
            MemoryRegion send = pdS.register(arena.allocate(8), 0);
            MemoryRegion recv = pdR.register(arena.allocate(300L * 64), Ibv.ACCESS_LOCAL_WRITE);
            for (int i = 0; i < 300; i++) {
                r.postRecv(new RecvRequest(i, List.of(recv.sge(recv.address() + 64L * i, 64))));
            }
            for (int i = 0; i < 300; i++) {
                bytes(send).set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, i);
                s.postSend(SendRequest.datagram(i, List.of(send.sge(send.address(), 8)),
                        new SendRequest.Destination(2, r.qpNum(), QKEY)));
                cqS.poll(new WorkCompletion[1], 1);
            }
            WorkCompletion[] got = new WorkCompletion[512];
            int n = cqR.poll(got, 512);
            List<Long> ids = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                assertThat(got[i].status()).isEqualTo(WcStatus.SUCCESS);
                ids.add(bytes(recv).get(java.lang.foreign.ValueLayout.JAVA_LONG, 64L * got[i].wrId() + Ibv.GRH_BYTES));
            }
            return ids;
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }
}
