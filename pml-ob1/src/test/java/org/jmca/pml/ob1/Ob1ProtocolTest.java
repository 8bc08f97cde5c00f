package org.jmca.pml.ob1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.junit.jupiter.api.Test;

class Ob1ProtocolTest {
    private static final int CTX = 7;

    private final LoopbackNetwork net = new LoopbackNetwork(2, 256, 1024, new Random(1), 0.0, false);

    private static MemorySegment pattern(int length, int seed) {
        MemorySegment segment = MemorySegment.ofArray(new byte[length]);
        for (int i = 0; i < length; i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
        return segment;
    }

    private PmlModule pml(int rank) {
        return net.pmls.get(rank);
    }

    @Test
    void eagerAndRendezvousMessagesArriveIntactAcrossTheThreshold() {
        for (int length : new int[] {0, 1, 200, 240, 241, 256, 1000, 5000, 100_000}) {
            MemorySegment data = pattern(length, length);
            MemorySegment into = MemorySegment.ofArray(new byte[length]);
            PmlRequest recv = pml(1).irecv(into, 0, 3, CTX);
            PmlRequest send = pml(0).isend(data, 1, 3, CTX, SendMode.STANDARD);
            net.runUntil(() -> recv.isComplete() && send.isComplete());
            assertThat(into.toArray(ValueLayout.JAVA_BYTE)).as("length %d", length)
                    .isEqualTo(data.toArray(ValueLayout.JAVA_BYTE));
            assertThat(recv.status()).isEqualTo(new PmlStatus(0, 3, length, false, false));
        }
    }

    @Test
    void aMessageSentBeforeItsReceiveIsPostedWaitsAsUnexpectedAndCanBeProbed() {
        MemorySegment data = pattern(5000, 9);
        PmlRequest send = pml(0).isend(data, 1, 42, CTX, SendMode.STANDARD);
        net.runUntil(() -> pml(1).iprobe(PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, CTX) != null);
        assertThat(pml(1).iprobe(0, 42, CTX)).isEqualTo(new PmlStatus(0, 42, 5000, false, false));
        assertThat(pml(1).iprobe(0, 43, CTX)).isNull();
        assertThat(pml(1).iprobe(0, 42, CTX + 1)).isNull();
        assertThat(send.isComplete()).as("a rendezvous send waits for its match").isFalse();

        MemorySegment into = MemorySegment.ofArray(new byte[5000]);
        PmlRequest recv = pml(1).irecv(into, 0, 42, CTX);
        net.runUntil(() -> recv.isComplete() && send.isComplete());
        assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void aSynchronousSendCompletesOnlyAfterTheMatch() {
        PmlRequest send = pml(0).isend(pattern(8, 1), 1, 1, CTX, SendMode.SYNCHRONOUS);
        for (int i = 0; i < 100; i++) {
            net.progress(0);
            net.progress(1);
        }
        assertThat(send.isComplete()).isFalse();
        PmlRequest recv = pml(1).irecv(MemorySegment.ofArray(new byte[8]), 0, 1, CTX);
        net.runUntil(() -> send.isComplete() && recv.isComplete());
    }

    @Test
    void nativeBuffersOnBothSidesGoByRgetWithoutFragments() {
        net.getMin = 1000;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment data = arena.allocate(100_000);
            data.copyFrom(pattern(100_000, 5));
            MemorySegment into = arena.allocate(100_000);
            PmlRequest recv = pml(1).irecv(into, 0, 2, CTX);
            PmlRequest send = pml(0).isend(data, 1, 2, CTX, SendMode.STANDARD);
            net.runUntil(() -> recv.isComplete() && send.isComplete());
            assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data.toArray(ValueLayout.JAVA_BYTE));
            assertThat(net.sentByTag[Ob1Header.TAG_FRAG]).as("fragments sent").isZero();
            assertThat(net.sentByTag[Ob1Header.TAG_ACK]).as("the receiver answers FIN, not ACK").isZero();
            assertThat(net.sentByTag[Ob1Header.TAG_FIN]).isEqualTo(1);

            // A heap receive buffer cannot be read into: the same message then comes in fragments.
            MemorySegment heap = MemorySegment.ofArray(new byte[100_000]);
            PmlRequest heapRecv = pml(1).irecv(heap, 0, 3, CTX);
            PmlRequest again = pml(0).isend(data, 1, 3, CTX, SendMode.STANDARD);
            net.runUntil(() -> heapRecv.isComplete() && again.isComplete());
            assertThat(heap.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data.toArray(ValueLayout.JAVA_BYTE));
            assertThat(net.sentByTag[Ob1Header.TAG_FRAG]).isPositive();
        }
    }

    @Test
    void onTheHelperThreadARendezvousIsReadBelowTheBtlsGetThresholdAndCounted() {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment data = arena.allocate(100_000);
            data.copyFrom(pattern(100_000, 8));
            MemorySegment into = arena.allocate(100_000);
            PmlRequest recv = pml(1).irecv(into, 0, 2, CTX);
            assertThat(pml(1).hasPendingReceives()).isTrue();
            PmlRequest send = pml(0).isend(data, 1, 2, CTX, SendMode.STANDARD);
            net.engines.get(1).helper = true;
            net.runUntil(() -> recv.isComplete() && send.isComplete());
            assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data.toArray(ValueLayout.JAVA_BYTE));
            assertThat(net.sentByTag[Ob1Header.TAG_FRAG]).as("fragments sent").isZero();
            assertThat(pml(1).hasPendingReceives()).isFalse();
            assertThat(counter(1, "pml_ob1_async_rendezvous")).isEqualTo(1);
            assertThat(counter(1, "pml_ob1_rget")).isEqualTo(1);

            // The application thread keeps the BTL's threshold (getMin is not set: never GET).
            net.engines.get(1).helper = false;
            PmlRequest appRecv = pml(1).irecv(into, 0, 3, CTX);
            PmlRequest appSend = pml(0).isend(data, 1, 3, CTX, SendMode.STANDARD);
            net.runUntil(() -> appRecv.isComplete() && appSend.isComplete());
            assertThat(net.sentByTag[Ob1Header.TAG_FRAG]).isPositive();
            assertThat(counter(1, "pml_ob1_async_rendezvous")).isEqualTo(1);
        }
    }

    private long counter(int rank, String name) {
        return pml(rank).performanceVariables().stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow().read();
    }

    @Test
    void aLongerMessageIsTruncatedAndSaysSo() {
        for (int length : new int[] {100, 5000}) {
            MemorySegment data = pattern(length, 3);
            MemorySegment into = MemorySegment.ofArray(new byte[50]);
            PmlRequest recv = pml(1).irecv(into, 0, 0, CTX);
            PmlRequest send = pml(0).isend(data, 1, 0, CTX, SendMode.STANDARD);
            net.runUntil(() -> recv.isComplete() && send.isComplete());
            assertThat(recv.status().truncated()).isTrue();
            assertThat(recv.status().byteCount()).isEqualTo(50);
            assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data.asSlice(0, 50).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void aPostedReceiveCanBeCancelledButAMatchedOneCannot() {
        PmlRequest recv = pml(1).irecv(MemorySegment.ofArray(new byte[4]), 0, 5, CTX);
        assertThat(recv.cancel()).isTrue();
        assertThat(recv.isComplete()).isTrue();
        assertThat(recv.status().cancelled()).isTrue();

        PmlRequest matched = pml(1).irecv(MemorySegment.ofArray(new byte[4]), 0, 5, CTX);
        PmlRequest send = pml(0).isend(pattern(4, 0), 1, 5, CTX, SendMode.STANDARD);
        net.runUntil(() -> matched.isComplete() && send.isComplete());
        assertThat(matched.cancel()).isFalse();
        assertThat(matched.status().cancelled()).isFalse();
    }

    @Test
    void anyTagDoesNotMatchJmcasOwnNegativeTags() {
        PmlRequest internal = pml(0).isend(pattern(4, 0), 1, -5, CTX, SendMode.STANDARD);
        PmlRequest user = pml(0).isend(pattern(4, 1), 1, 9, CTX, SendMode.STANDARD);
        PmlRequest recv = pml(1).irecv(MemorySegment.ofArray(new byte[4]), PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, CTX);
        net.runUntil(() -> recv.isComplete() && internal.isComplete() && user.isComplete());
        assertThat(recv.status().tag()).isEqualTo(9);
    }

    @Test
    void aPeerNoBtlReachesIsAnErrorNamingIt() {
        var peers = java.util.List.of(new Peer(0, "a", java.util.Map.of()), new Peer(1, "b", java.util.Map.of()));
        assertThatThrownBy(() -> new Ob1PmlModule(new PmlEnvironment(0, peers, java.util.List.of(),
                new LoopbackNetwork.Engine())))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("no selected BTL reaches rank(s) 0 (a), 1 (b)");
    }
}
