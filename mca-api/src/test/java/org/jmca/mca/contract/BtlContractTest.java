package org.jmca.mca.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every BTL must do, run against each one: a subclass supplies connected modules.
 * Fragments arrive intact, with their tag, in order per sender, up to the module's max send size,
 * whatever the payload's memory (heap arrays of any type, native memory).
 */
public abstract class BtlContractTest {
    private static final int HEADER = 8;

    private List<BtlModule> modules = List.of();
    private final List<List<Arrival>> arrivals = new ArrayList<>();
    private final Map<Integer, List<BtlEndpoint>> endpoints = new HashMap<>();

    /** An arrived fragment, copied. */
    public record Arrival(int from, byte tag, byte[] bytes) { }

    /**
     * Makes {@code size} modules, module i for rank i, each already past {@link BtlModule#addPeers}
     * with every other's published address.
     */
    protected abstract List<BtlModule> createConnected(int size);

    /** How many ranks the BTL connects in one test (1 for self). */
    protected int ranks() {
        return 2;
    }

    private void open(int size) {
        modules = createConnected(size);
        for (int r = 0; r < size; r++) {
            endpoint(r, 0);
        }
        for (int r = 0; r < size; r++) {
            List<Arrival> mine = new ArrayList<>();
            arrivals.add(mine);
            modules.get(r).setReceiver((from, tag, memory, offset, length) -> mine.add(
                    new Arrival(from.rank(), tag, memory.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))));
        }
    }

    @AfterEach
    void finalizeModules() {
        modules.forEach(BtlModule::finalizeModule);
    }

    private BtlEndpoint endpoint(int from, int to) {
        List<Peer> peers = new ArrayList<>();
        for (int r = 0; r < modules.size(); r++) {
            peers.add(new Peer(r, "localhost", modules.get(r).localAddress()));
        }
        return endpoints.computeIfAbsent(from, f -> modules.get(f).addPeers(peers)).get(to);
    }

    private void progressUntil(BooleanSupplier done) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            for (BtlModule module : modules) {
                module.progress();
            }
            assertThat(System.nanoTime()).as("fragments did not arrive within 20 s").isLessThan(deadline);
        }
    }

    private static MemorySegment header(int value) {
        MemorySegment h = MemorySegment.ofArray(new byte[HEADER]);
        h.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        return h;
    }

    @Test
    void propertiesAreConsistent() {
        open(ranks());
        BtlProperties p = modules.getFirst().properties();
        assertThat(p.eagerLimit()).isPositive().isLessThanOrEqualTo(p.maxSendSize());
        assertThat(p.flags()).contains(BtlProperties.Flag.SEND);
    }

    @Test
    void fragmentsArriveIntactInOrderWithTheirTags() {
        open(ranks());
        int receiver = ranks() - 1;
        Random random = new Random(42);
        List<byte[]> expected = new ArrayList<>();
        int count = 500;
        long max = modules.getFirst().properties().maxSendSize() - HEADER;
        for (int i = 0; i < count; i++) {
            int length = (int) (i % 50 == 0 ? max : random.nextInt(i % 3 == 0 ? 2000 : 64));
            byte[] payload = new byte[length];
            random.nextBytes(payload);
            expected.add(payload);
            MemorySegment data = MemorySegment.ofArray(payload);
            BtlEndpoint to = endpoint(0, receiver);
            while (!modules.getFirst().send(to, (byte) (1 + i % 100), header(i), data)) {
                modules.forEach(BtlModule::progress);
            }
        }
        progressUntil(() -> arrivals.get(receiver).size() == count);
        for (int i = 0; i < count; i++) {
            Arrival a = arrivals.get(receiver).get(i);
            assertThat(a.from()).isZero();
            assertThat(a.tag()).isEqualTo((byte) (1 + i % 100));
            MemorySegment got = MemorySegment.ofArray(a.bytes());
            assertThat(got.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).as("sequence").isEqualTo(i);
            assertThat(got.asSlice(HEADER).toArray(ValueLayout.JAVA_BYTE)).as("payload %d", i).isEqualTo(expected.get(i));
        }
    }

    @Test
    void payloadsMayLiveInAnyArrayOrInNativeMemory() {
        open(ranks());
        int receiver = ranks() - 1;
        int[] ints = {1, -2, 3, Integer.MAX_VALUE};
        double[] doubles = {Math.PI, -0.0};
        MemorySegment nativeBytes = Arena.ofAuto().allocate(64);
        nativeBytes.fill((byte) 7);
        List<MemorySegment> payloads = List.of(MemorySegment.ofArray(ints), MemorySegment.ofArray(doubles), nativeBytes,
                MemorySegment.ofArray(new byte[0]));
        for (int i = 0; i < payloads.size(); i++) {
            assertThat(modules.getFirst().send(endpoint(0, receiver), (byte) 9, header(i), payloads.get(i))).isTrue();
        }
        progressUntil(() -> arrivals.get(receiver).size() == payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            byte[] bytes = arrivals.get(receiver).get(i).bytes();
            assertThat(MemorySegment.ofArray(bytes).asSlice(HEADER).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(payloads.get(i).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void bothDirectionsWorkAtOnce() {
        if (ranks() < 2) {
            return;
        }
        open(2);
        for (int i = 0; i < 100; i++) {
            MemorySegment small = MemorySegment.ofArray(new byte[i]);
            MemorySegment larger = MemorySegment.ofArray(new byte[i * 3]);
            while (!modules.get(0).send(endpoint(0, 1), (byte) 1, header(i), small)) {
                modules.forEach(BtlModule::progress);
            }
            while (!modules.get(1).send(endpoint(1, 0), (byte) 2, header(i), larger)) {
                modules.forEach(BtlModule::progress);
            }
        }
        progressUntil(() -> arrivals.get(0).size() == 100 && arrivals.get(1).size() == 100);
        assertThat(arrivals.get(0)).allMatch(a -> a.from() == 1 && a.tag() == 2);
        assertThat(arrivals.get(1)).allMatch(a -> a.from() == 0 && a.tag() == 1);
    }

    @Test
    void aHeaderGivenAsTwoWordsArrivesAsTheirSixteenBytes() {
        open(ranks());
        int receiver = ranks() - 1;
        byte[] payload = {1, 2, 3, 4, 5};
        for (int i = 0; i < 10; i++) {
            long word0 = 0x1122_3344_5566_7788L + i;
            // A module may refuse for a while (back-pressure); progress frees it.
            progressUntil(() -> modules.getFirst().send(endpoint(0, receiver), (byte) 7, word0, ~word0,
                    MemorySegment.ofArray(payload)));
        }
        progressUntil(() -> arrivals.get(receiver).size() == 10);
        for (int i = 0; i < 10; i++) {
            MemorySegment got = MemorySegment.ofArray(arrivals.get(receiver).get(i).bytes());
            assertThat(arrivals.get(receiver).get(i).tag()).isEqualTo((byte) 7);
            assertThat(got.byteSize()).isEqualTo(16 + payload.length);
            assertThat(got.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(0x1122_3344_5566_7788L + i);
            assertThat(got.get(ValueLayout.JAVA_LONG_UNALIGNED, 8)).isEqualTo(~(0x1122_3344_5566_7788L + i));
            assertThat(got.asSlice(16).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(payload);
        }
    }
}
