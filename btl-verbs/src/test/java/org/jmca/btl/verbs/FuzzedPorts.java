package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.Ibv.QpType;
import org.jmca.mca.McaException;

/**
 * What the soft device's fuzz tests set up before they forge anything: on the victim's port an
 * RC queue pair connected to one on the peer's port and a UD queue pair with its receives
 * posted, so that the traffic beside the forged packets can be checked.
 */
record FuzzedPorts(Verbs.ProtectionDomain pdV, Verbs.ProtectionDomain pdP, Verbs.CompletionQueue cqV,
                   Verbs.CompletionQueue udCq, Verbs.CompletionQueue cqP, Verbs.QueuePair rcV, Verbs.QueuePair udV,
                   Verbs.QueuePair rcP, MemoryRegion udBuffers) {
    static final int RC_QPN = 1;
    static final int UD_QPN = 2;

    /**
     * Connects the RC queue pairs and readies the victim's UD queue pair, which gets
     * {@code udReceives} receives of {@code udReceiveBytes} each, after {@code beforeReceives}.
     */
    static FuzzedPorts connect(SoftVerbs victim, int victimLid, SoftVerbs peer, int peerLid, Arena arena,
                               int udReceives, int udReceiveBytes, Consumer<Verbs.QueuePair> beforeReceives) {
        Verbs.ProtectionDomain pdV = victim.allocPd();
        Verbs.ProtectionDomain pdP = peer.allocPd();
        Verbs.CompletionQueue cqV = victim.createCq(64);
        Verbs.CompletionQueue udCq = victim.createCq(64);
        Verbs.CompletionQueue cqP = peer.createCq(64);
        Verbs.QueuePair rcV = pdV.createQp(QpType.RC, cqV, cqV, 16, 16);
        Verbs.QueuePair udV = pdV.createQp(QpType.UD, udCq, udCq, 16, udReceives);
        Verbs.QueuePair rcP = pdP.createQp(QpType.RC, cqP, cqP, 16, 16);
        assertThat(List.of(rcV.qpNum(), udV.qpNum())).containsExactly(RC_QPN, UD_QPN);
        for (Verbs.QueuePair qp : List.of(rcV, rcP)) {
            QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                    .accessFlags(Ibv.ACCESS_LOCAL_WRITE);
            qp.modify(init, init.mask());
        }
        VerbsContract.toRts(rcV, peerLid, rcP.qpNum(), 100, 200, 7, 7, 14);
        VerbsContract.toRts(rcP, victimLid, rcV.qpNum(), 200, 100, 7, 7, 14);
        VerbsContract.toUdRts(udV);
        beforeReceives.accept(udV);
        MemoryRegion udBuffers = pdV.register(arena.allocate((long) udReceives * udReceiveBytes, 64),
                Ibv.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < udReceives; i++) {
            udV.postRecv(new RecvRequest(i, List.of(udBuffers.sge(udBuffers.address() + (long) i * udReceiveBytes,
                    udReceiveBytes))));
        }
        return new FuzzedPorts(pdV, pdP, cqV, udCq, cqP, rcV, udV, rcP, udBuffers);
    }

    /**
     * Posts 8 bytes each way over the connected RC pair, the traffic beside the forged packets:
     * receives 7 (victim) and 8 (peer) into bytes 0-63, sends 9 and 10 of bytes 64-71.
     */
    void postCrossTraffic(MemoryRegion bufV, MemoryRegion bufP) {
        bytes(bufV).set(ValueLayout.JAVA_LONG, 64, 0x1111_2222L);
        bytes(bufP).set(ValueLayout.JAVA_LONG, 64, 0x3333_4444L);
        rcV.postRecv(new RecvRequest(7, List.of(bufV.sge(bufV.address(), 64))));
        rcP.postRecv(new RecvRequest(8, List.of(bufP.sge(bufP.address(), 64))));
        rcV.postSend(SendRequest.send(9, List.of(bufV.sge(bufV.address() + 64, 8))));
        rcP.postSend(SendRequest.send(10, List.of(bufP.sge(bufP.address() + 64, 8))));
    }

    /** The cross traffic arrived: every completion succeeded and each side holds the other's 8 bytes. */
    static void assertCrossTraffic(MemoryRegion bufV, MemoryRegion bufP, List<WorkCompletion> onVictim,
                                   List<WorkCompletion> onPeer) {
        assertThat(onVictim).allMatch(WorkCompletion::ok);
        assertThat(onPeer).allMatch(WorkCompletion::ok);
        assertThat(bytes(bufV).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(0x3333_4444L);
        assertThat(bytes(bufP).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(0x1111_2222L);
    }

    /** Polls {@code cq} once, its completions into {@code into}, an error it throws into {@code errors}. */
    static void pollInto(Verbs.CompletionQueue cq, List<WorkCompletion> into, List<String> errors) {
        WorkCompletion[] batch = new WorkCompletion[16];
        try {
            int n = cq.poll(batch, batch.length);
            into.addAll(Arrays.asList(batch).subList(0, n));
        } catch (McaException e) {
            errors.add(e.getMessage());
        }
    }

    static MemorySegment bytes(MemoryRegion mr) {
        return MemorySegment.ofAddress(mr.address()).reinterpret(mr.length());
    }
}
