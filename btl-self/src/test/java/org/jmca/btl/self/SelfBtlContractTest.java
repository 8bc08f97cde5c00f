package org.jmca.btl.self;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.Test;

class SelfBtlContractTest extends BtlContractTest {

    @Override
    protected List<BtlModule> createConnected(int size) {
        return List.of(new SelfBtlModule(0, SelfBtlComponent.DEFAULTS));
    }

    @Override
    protected int ranks() {
        return 1;
    }

    @Override
    protected String cannotMeet(Clause clause) {
        return switch (clause) {
            case BACK_PRESSURE -> "btl/self queues every fragment on its own heap until its next progress turn: there"
                    + " is no peer whose progress could make room, so it never refuses a send";
            case PEER_DEATH -> "btl/self reaches only its own rank: there is no peer to die";
            case FINALIZE_IN_FLIGHT -> null;
        };
    }

    @Test
    void reachesOnlyItsOwnRank() {
        SelfBtlModule module = new SelfBtlModule(1, fragmentsOf(1024));
        var endpoints = module.addPeers(List.of(new Peer(0, "h", Map.of()), new Peer(1, "h", Map.of())));
        assertThat(endpoints.get(0)).isNull();
        assertThat(endpoints.get(1).rank()).isEqualTo(1);
    }

    @Test
    void deliversOnlyDuringProgressNeverInsideSend() {
        SelfBtlModule module = new SelfBtlModule(0, fragmentsOf(1024));
        var self = module.addPeers(List.of(new Peer(0, "h", Map.of()))).getFirst();
        int[] delivered = {0};
        module.setReceiver((from, tag, memory, offset, length) -> delivered[0]++);
        module.send(self, (byte) 1, MemorySegment.ofArray(new byte[4]), MemorySegment.ofArray(new byte[4]));
        assertThat(delivered[0]).isZero();
        assertThat(module.progress()).isEqualTo(1);
        assertThat(delivered[0]).isEqualTo(1);
        assertThatThrownBy(() -> module.send(self, (byte) 1, MemorySegment.ofArray(new byte[1020]),
                MemorySegment.ofArray(new byte[8]))).hasMessageContaining("btl_self_max_send_size=1024");
    }

    private static BtlProperties fragmentsOf(long bytes) {
        return new BtlProperties(65536, 0, 1_000_000, bytes, bytes, EnumSet.of(BtlProperties.Flag.SEND));
    }
}
