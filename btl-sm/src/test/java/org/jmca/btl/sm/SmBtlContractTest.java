package org.jmca.btl.sm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmBtlContractTest extends BtlContractTest {

    @TempDir
    Path dir;

    private SmBtlModule module(int rank, int size, String job) {
        return new SmBtlModule(rank, size, "localhost", dir.resolve(job + ".sm." + rank), 64 * 1024,
                new BtlProperties(65535, 200, 80_000, 4096, 8192, EnumSet.of(BtlProperties.Flag.SEND)), singleCopyMin());
    }

    /** The smallest message read by single copy (GET through process_vm_readv); here never. */
    protected long singleCopyMin() {
        return Long.MAX_VALUE;
    }

    @Override
    protected List<BtlModule> createConnected(int size) {
        List<BtlModule> modules = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            modules.add(module(r, size, "job"));
        }
        return modules;
    }

    @Test
    void theSegmentIsPrivateToTheUserAndRemovedAtFinalize() throws IOException {
        SmBtlModule module = module(0, 2, "private");
        Path file = Path.of(module.localAddress().get(SmBtlModule.SEGMENT_KEY));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        module.finalizeModule();
        assertThat(file).doesNotExist();
    }

    @Test
    void onlyPeersOnThisHostAreReachable() {
        SmBtlModule zero = module(0, 3, "hosts");
        SmBtlModule one = module(1, 3, "hosts");
        var endpoints = zero.addPeers(List.of(new Peer(0, "localhost", zero.localAddress()),
                new Peer(1, "localhost", one.localAddress()), new Peer(2, "elsewhere", Map.of())));
        assertThat(endpoints.get(0)).isNull();
        assertThat(endpoints.get(1)).isNotNull();
        assertThat(endpoints.get(2)).isNull();
        zero.finalizeModule();
        one.finalizeModule();
    }

    /** Wires up ranks 0 and 1 of a two-rank job and returns rank 0's endpoint to rank 1. */
    private static BtlEndpoint connect(SmBtlModule zero, SmBtlModule one) {
        List<Peer> peers = List.of(new Peer(0, "localhost", zero.localAddress()), new Peer(1, "localhost", one.localAddress()));
        BtlEndpoint toOne = zero.addPeers(peers).get(1);
        one.addPeers(peers);
        return toOne;
    }

    @Test
    void aFullRingPushesBackUntilTheReceiverPolls() {
        SmBtlModule zero = module(0, 2, "full");
        SmBtlModule one = module(1, 2, "full");
        BtlEndpoint toOne = connect(zero, one);
        int[] received = {0};
        one.setReceiver((from, tag, memory, offset, length) -> received[0]++);
        MemorySegment payload = MemorySegment.ofArray(new byte[8000]);
        MemorySegment header = MemorySegment.ofArray(new byte[8]);
        int sent = 0;
        while (zero.send(toOne, (byte) 1, header, payload)) {
            sent++;
        }
        assertThat(sent).isBetween(6, 8);
        assertThat(one.progress()).isEqualTo(sent);
        assertThat(zero.send(toOne, (byte) 1, header, payload)).isTrue();
        zero.finalizeModule();
        one.finalizeModule();
    }

    @Test
    void aSendAfterFinalizeFailsInsteadOfWritingToUnmappedMemory() {
        SmBtlModule zero = module(0, 2, "closed");
        SmBtlModule one = module(1, 2, "closed");
        BtlEndpoint toOne = connect(zero, one);
        one.setReceiver((from, tag, memory, offset, length) -> { });
        MemorySegment payload = MemorySegment.ofArray(new byte[8]);
        // A fragment left in the ring: polling it after finalize would read unmapped memory.
        assertThat(zero.send(toOne, (byte) 1, 1L, 2L, payload)).isTrue();
        zero.finalizeModule();
        one.finalizeModule();
        assertThatThrownBy(() -> zero.send(toOne, (byte) 1, 1L, 2L, payload))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after finalize");
        assertThat(one.progress()).as("nothing is polled after finalize").isZero();
    }
}
