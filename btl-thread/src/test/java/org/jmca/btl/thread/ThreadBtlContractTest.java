package org.jmca.btl.thread;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.Test;

class ThreadBtlContractTest extends BtlContractTest {

    @Override
    protected List<BtlModule> createConnected(int size) {
        return connected(size);
    }

    private static List<BtlModule> connected(int size) {
        ThreadFabric fabric = new ThreadFabric(size, 64 * 1024);
        List<BtlModule> modules = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            modules.add(new ThreadBtlModule(rank, fabric, ThreadBtlComponent.DEFAULTS));
        }
        List<Peer> peers = IntStream.range(0, size).mapToObj(r -> new Peer(r, "h", java.util.Map.of())).toList();
        modules.forEach(m -> m.addPeers(peers));
        return modules;
    }

    @Test
    void aPeerReadsExposedHeapMemoryWithOneCopy() {
        List<BtlModule> modules = connected(2);
        var toSender = modules.get(1).addPeers(List.of(new Peer(0, "h", java.util.Map.of()),
                new Peer(1, "h", java.util.Map.of()))).get(0);
        int[] sent = IntStream.range(0, 100_000).toArray();
        long key = modules.get(0).exposeForGet(MemorySegment.ofArray(sent));
        int[] received = new int[sent.length];
        assertThat(modules.get(1).get(toSender, -1, key, MemorySegment.ofArray(received))).isTrue();
        assertThat(received).isEqualTo(sent);
        modules.get(0).unexpose(key);
        // A freed key is used again, and many at once grow the table.
        List<Long> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            keys.add(modules.get(0).exposeForGet(MemorySegment.ofArray(new byte[i + 1])));
        }
        assertThat(keys).doesNotHaveDuplicates().contains(key);
    }
}
