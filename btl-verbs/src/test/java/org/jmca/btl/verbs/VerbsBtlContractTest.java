package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The BTL contract over the software verbs device, and what is particular to verbs. */
class VerbsBtlContractTest extends BtlContractTest {
    private final List<SoftFabric> fabrics = new ArrayList<>();

    @Override
    protected List<BtlModule> createConnected(int size) {
        SoftFabric fabric = new SoftFabric(size, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE);
        fabrics.add(fabric);
        return List.copyOf(fabric.modules);
    }

    /** A process that dies says no BYE: its module goes without a word (finalize would tell the peers). */
    @Override
    protected void die(BtlModule module, List<BtlEndpoint> itsEndpoints) {
        ((VerbsBtlModule) module).release();
    }

    /** The contract's own teardown finalizes the modules; their directories go here. */
    @AfterEach
    void removeFabrics() {
        fabrics.forEach(SoftFabric::removeDirectory);
    }

    static long counter(BtlModule module, String name) {
        return module.performanceVariables().stream().filter(v -> v.name().equals(name)).findFirst()
                .map(PerformanceVariable::read).orElseThrow();
    }

    /** Progresses every module until {@code done} holds; fails after 20 s. */
    static void progressUntil(SoftFabric fabric, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            fabric.modules.forEach(VerbsBtlModule::progress);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no progress for 20 s; connections:\n" + fabric.describeConnections());
            }
        }
    }

    @Test
    void noConnectionIsMadeBeforeTheFirstMessageAndOneAfterIt() {
        try (SoftFabric fabric = new SoftFabric(3, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE)) {
            int[] got = new int[3];
            for (int r = 0; r < 3; r++) {
                int rank = r;
                fabric.modules.get(r).setReceiver((from, tag, memory, offset, length) -> got[rank]++);
            }
            fabric.modules.forEach(VerbsBtlModule::progress);
            assertThat(fabric.modules).allSatisfy(m -> assertThat(counter(m, "btl_verbs_open_connections")).isZero());
            MemorySegment payload = MemorySegment.ofArray(new byte[100]);
            progressUntil(fabric, () -> fabric.modules.get(0).send(fabric.endpoints.get(0).get(2), (byte) 7,
                    MemorySegment.ofArray(new byte[16]), payload));
            progressUntil(fabric, () -> got[2] == 1);
            assertThat(counter(fabric.modules.get(0), "btl_verbs_open_connections")).isEqualTo(1);
            assertThat(counter(fabric.modules.get(2), "btl_verbs_open_connections")).isEqualTo(1);
            assertThat(counter(fabric.modules.get(1), "btl_verbs_open_connections")).isZero();
        }
    }

    @Test
    void withMaxConnOneEveryNewPeerTearsTheLastOneDownAndNothingIsLostOrReordered() {
        try (SoftFabric fabric = new SoftFabric(4, SoftFabric.settings(1, VictimPolicy.LRU), SoftFaults.NONE)) {
            List<List<Long>> got = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                List<Long> mine = new ArrayList<>();
                got.add(mine);
                fabric.modules.get(r).setReceiver((from, tag, memory, offset, length) ->
                        mine.add((long) from.rank() << 32 | memory.get(ValueLayout.JAVA_INT_UNALIGNED, offset)));
            }
            MemorySegment header = Arena.ofAuto().allocate(4);
            for (int round = 0; round < 30; round++) {
                for (int to = 1; to < 4; to++) {
                    header.set(ValueLayout.JAVA_INT, 0, round);
                    var endpoint = fabric.endpoints.get(0).get(to);
                    progressUntil(fabric, () -> fabric.modules.get(0).send(endpoint, (byte) 1, header,
                            MemorySegment.NULL));
                    int receiver = to;
                    int arrived = round + 1;
                    progressUntil(fabric, () -> got.get(receiver).size() == arrived);
                }
            }
            progressUntil(fabric, () -> got.get(1).size() == 30 && got.get(2).size() == 30 && got.get(3).size() == 30);
            for (int to = 1; to < 4; to++) {
                assertThat(got.get(to)).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 30).boxed().toList());
            }
            VerbsBtlModule zero = fabric.modules.get(0);
            assertThat(counter(zero, "btl_verbs_peak_connections")).isLessThanOrEqualTo(2);
            assertThat(counter(zero, "btl_verbs_tear_downs")).isGreaterThanOrEqualTo(80);
            assertThat(counter(zero, "btl_verbs_reconnections")).isGreaterThanOrEqualTo(80);
        }
    }

    @Test
    void aLargeNativeBufferIsReadWithRdmaAndItsRegistrationIsCachedForTheNextMessage() {
        try (SoftFabric fabric = new SoftFabric(2, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE);
             Arena arena = Arena.ofConfined()) {
            VerbsBtlModule zero = fabric.modules.get(0);
            VerbsBtlModule one = fabric.modules.get(1);
            one.setReceiver((from, tag, memory, offset, length) -> { });
            zero.setReceiver((from, tag, memory, offset, length) -> { });
            progressUntil(fabric, () -> one.send(fabric.endpoints.get(1).get(0), (byte) 1, MemorySegment.ofArray(
                    new byte[8]), MemorySegment.NULL));
            // RC completes in order: the first send must be acknowledged before a read can complete.
            progressUntil(fabric, () -> !one.hasPendingSends());
            MemorySegment source = arena.allocate(1 << 20, 64);
            for (int i = 0; i < source.byteSize(); i += 8) {
                source.set(ValueLayout.JAVA_LONG, i, i * 31L);
            }
            MemorySegment target = arena.allocate(1 << 20, 64);
            for (int message = 0; message < 3; message++) {
                target.fill((byte) 0);
                long key = zero.exposeForGet(source);
                progressUntil(fabric, () -> counter(one, "btl_verbs_open_connections") == 1
                        && counter(zero, "btl_verbs_open_connections") == 1);
                progressUntil(fabric, () -> one.get(fabric.endpoints.get(1).get(0), source.address(), key, target));
                zero.unexpose(key);
                assertThat(target.mismatch(source)).isEqualTo(-1);
            }
            assertThat(counter(one, "btl_verbs_rget")).isEqualTo(3);
            // 8 blocks of 128 KiB registered once, then found again twice.
            assertThat(counter(one, "btl_verbs_reg_cache_misses")).isEqualTo(8);
            assertThat(counter(one, "btl_verbs_reg_cache_hits")).isEqualTo(16);
            assertThat(counter(zero, "btl_verbs_reg_cache_hits")).isEqualTo(2);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "over the socket wire: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void heapAndNativeDataAreWrittenIntoAnExposedBufferWithRdmaAndAReadOnlyExposureRefusesIt(boolean socketWire) {
        try (SoftFabric fabric = new SoftFabric(2, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE,
                socketWire); Arena arena = Arena.ofShared()) {
            VerbsBtlModule zero = fabric.modules.get(0);
            VerbsBtlModule one = fabric.modules.get(1);
            one.setReceiver((from, tag, memory, offset, length) -> { });
            zero.setReceiver((from, tag, memory, offset, length) -> { });
            BtlEndpoint toOne = fabric.endpoints.get(0).get(1);
            progressUntil(fabric, () -> zero.send(toOne, (byte) 1, MemorySegment.ofArray(new byte[8]), MemorySegment.NULL));
            progressUntil(fabric, () -> !zero.hasPendingSends());
            int bytes = (1 << 20) + 1000; // 8 blocks and a bit: both bounce halves, several times
            byte[] heap = new byte[bytes];
            new java.util.Random(5).nextBytes(heap);
            MemorySegment nativeSource = arena.allocate(bytes, 64).copyFrom(MemorySegment.ofArray(heap));
            MemorySegment target = arena.allocate(bytes, 64);
            for (MemorySegment source : List.of(MemorySegment.ofArray(heap), nativeSource)) {
                target.fill((byte) 0);
                long key = one.exposeForPut(target);
                progressUntil(fabric, () -> zero.put(toOne, source, target.address(), key));
                one.unexpose(key);
                assertThat(target.mismatch(source)).as("written from %s memory", source.isNative() ? "native" : "heap")
                        .isEqualTo(-1);
            }
            assertThat(counter(zero, "btl_verbs_rput")).isEqualTo(2);
            long readOnly = one.exposeForGet(target);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> zero.put(toOne, nativeSource, target.address(),
                    readOnly)).hasMessageContaining("IBV_WC_REM_ACCESS_ERR");
        }
    }

    @Test
    void theModuleReportsExactlyTheCountersItsComponentDeclaresForJmcaInfo() {
        try (SoftFabric fabric = new SoftFabric(2, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE)) {
            assertThat(fabric.modules.get(0).performanceVariables()).extracting(PerformanceVariable::name)
                    .containsExactlyElementsOf(new VerbsBtlComponent().counters().stream()
                            .map(org.jmca.mca.Counter::name).toList());
        }
    }
}
