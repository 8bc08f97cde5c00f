package org.jmca.btl.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The BTL contract over btl/gm on the emulated NIC, and RPUT by directed sends. */
class GmBtlContractTest extends BtlContractTest {
    static final GmSettings SETTINGS = new GmSettings(GmBtlComponent.DEFAULTS, 4, 2, true, 64L << 20, 128 * 1024);
    private static final EmulatedGmPort.Settings NIC = new EmulatedGmPort.Settings(1 << 18, 8, 6, 0, 0);
    private final List<Path> fabrics = new ArrayList<>();

    /** Modules of {@code size} ranks in one fabric directory, wired to each other. */
    List<GmBtlModule> connected(int size) {
        Path fabric;
        try {
            fabric = Files.createTempDirectory("gm-fabric");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        fabrics.add(fabric);
        List<GmBtlModule> modules = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            modules.add(new GmBtlModule(rank, EmulatedGmPort.open(fabric, rank + 1, size, 2, NIC), null, SETTINGS));
        }
        List<Peer> peers = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            peers.add(new Peer(rank, "localhost", modules.get(rank).localAddress()));
        }
        modules.forEach(m -> m.addPeers(peers));
        return modules;
    }

    @Override
    protected List<BtlModule> createConnected(int size) {
        return List.copyOf(connected(size));
    }

    @AfterEach
    void removeFabrics() throws IOException {
        for (Path fabric : fabrics) {
            try (Stream<Path> files = Files.walk(fabric)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void progressUntil(List<GmBtlModule> modules, BooleanSupplier done) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            modules.forEach(GmBtlModule::progress);
            assertThat(System.nanoTime()).as("progress within 10 s").isLessThan(deadline);
        }
    }

    static long counter(BtlModule module, String name) {
        return module.performanceVariables().stream().filter(v -> v.name().equals(name)).findFirst()
                .map(PerformanceVariable::read).orElseThrow();
    }

    @Test
    void moreFragmentsThanBuffersAndTokensWaitAndArriveInOrder() {
        List<GmBtlModule> modules = connected(2);
        List<Integer> got = new ArrayList<>();
        modules.get(1).setReceiver((from, tag, memory, offset, length) -> got.add((int) memory.get(
                java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, offset)));
        modules.get(0).setReceiver((from, tag, memory, offset, length) -> { });
        BtlEndpoint toOne = modules.get(0).addPeers(List.of(new Peer(0, "localhost", modules.get(0).localAddress()),
                new Peer(1, "localhost", modules.get(1).localAddress()))).get(1);
        for (int i = 0; i < 200; i++) {
            MemorySegment header = MemorySegment.ofArray(new int[] {i});
            MemorySegment payload = MemorySegment.ofArray(new byte[i % 3 == 0 ? 20_000 : 10]);
            progressUntil(modules, () -> modules.get(0).send(toOne, (byte) 3, header, payload));
        }
        progressUntil(modules, () -> got.size() == 200);
        assertThat(got).isEqualTo(java.util.stream.IntStream.range(0, 200).boxed().toList());
        assertThat(counter(modules.get(0), "btl_gm_send_backpressure")).as("8 tokens for 200 fragments").isPositive();
        modules.forEach(GmBtlModule::finalizeModule);
    }

    @Test
    void heapAndNativeDataAreWrittenIntoAnExposedBufferByDirectedSends() {
        List<GmBtlModule> modules = connected(2);
        modules.forEach(m -> m.setReceiver((from, tag, memory, offset, length) -> { }));
        BtlEndpoint toOne = modules.get(0).addPeers(List.of(new Peer(0, "localhost", modules.get(0).localAddress()),
                new Peer(1, "localhost", modules.get(1).localAddress()))).get(1);
        try (Arena arena = Arena.ofShared()) {
            int bytes = (1 << 20) + 333;
            byte[] heap = new byte[bytes];
            new java.util.Random(9).nextBytes(heap);
            MemorySegment nativeSource = arena.allocate(bytes).copyFrom(MemorySegment.ofArray(heap));
            MemorySegment target = arena.allocate(bytes);
            for (MemorySegment source : List.of(MemorySegment.ofArray(heap), nativeSource)) {
                target.fill((byte) 0);
                long key = modules.get(1).exposeForPut(target);
                // The other side must move for the directed sends to land: a second thread plays it.
                Thread peer = Thread.ofPlatform().start(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        modules.get(1).progress();
                    }
                });
                try {
                    assertThat(modules.get(0).put(toOne, source, target.address(), key)).isTrue();
                } finally {
                    peer.interrupt();
                    try {
                        peer.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                modules.get(1).unexpose(key);
                assertThat(target.mismatch(source)).isEqualTo(-1);
            }
            assertThat(counter(modules.get(0), "btl_gm_put")).isEqualTo(2);
            assertThat(counter(modules.get(1), "btl_gm_reg_cache_hits")).as("the target's registration reused")
                    .isEqualTo(1);
        }
        modules.forEach(GmBtlModule::finalizeModule);
    }
}
