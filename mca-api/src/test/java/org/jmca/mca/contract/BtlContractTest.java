package org.jmca.mca.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every BTL must do, run against each one: a subclass supplies connected modules.
 * Fragments arrive intact, with their tag, in order per sender, up to the module's max send size,
 * whatever the payload's memory (heap arrays of any type, native memory). A module with
 * {@link BtlProperties.Flag#PUT} or {@link BtlProperties.Flag#GET} writes into and reads from a
 * peer's exposed memory. A send that cannot go now is refused and goes later, nothing lost; a
 * peer that dies is reported, never waited for; finalize with traffic in flight neither throws,
 * nor hangs, nor leaves threads behind.
 *
 * <p>A BTL that legitimately cannot meet one of the {@link Clause}s says why in
 * {@link #cannotMeet}: its tests of that clause are skipped with that reason. The tests of the
 * clauses are protected so that a BTL with a known bug can override one with
 * {@code @Test @Disabled("the bug")} calling {@code super} until its owner fixes it; an override
 * without {@code @Test} would drop the test silently.
 *
 * <p>Loops that wait for a module count progress turns, not time: a BTL that never delivers, or
 * never reports a dead peer, fails after {@link #TURNS} turns (or {@link #DEATH_TURNS}) instead
 * of hanging the build.
 */
public abstract class BtlContractTest {
    private static final int HEADER = 8;
    /** Progress turns a wait may take: many seconds of work for any module that moves at all. */
    protected static final int TURNS = 5_000_000;
    /**
     * Progress turns (each with a send to the dead peer) in which a peer's death must be reported:
     * enough for a module that finds it by a transport's timeout of a fraction of a second.
     */
    protected static final int DEATH_TURNS = 3_000_000;
    /** The most a back-pressure test offers a peer that does not progress before it expects a refusal. */
    private static final long FILL_BYTES = 64L << 20;
    private static final int FILL_FRAGMENTS = 200_000;
    /** Sizes of put and get: tiny, odd, above the eager limit, above max_send_size, a large rendezvous. */
    private static final long PUT_GET_LARGE = (1 << 20) + 333;
    /** Where a put or get lands in its buffers: odd, so that no alignment is assumed. */
    private static final long LOCAL_OFFSET = 5;
    private static final long REMOTE_OFFSET = 19;
    private static final byte GUARD = 0x5A;

    /** Contract items that a BTL may be unable to meet, for a reason it gives in {@link #cannotMeet}. */
    protected enum Clause {
        /** A send that cannot go now is refused (false), and goes after progress, nothing lost or reordered. */
        BACK_PRESSURE,
        /** After a peer died, sending to it fails or is reported with an error naming it, within bounded progress. */
        PEER_DEATH,
        /** Finalizing every module while sends are in flight throws nothing, returns, and leaves no thread. */
        FINALIZE_IN_FLIGHT
    }

    private List<BtlModule> modules = List.of();
    /** Modules finalized (or killed) by a test, which the teardown leaves alone. */
    private final Set<BtlModule> gone = Collections.newSetFromMap(new IdentityHashMap<>());
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

    /**
     * Why this BTL legitimately cannot meet {@code clause} — a reason in the BTL's nature, not a
     * bug — or null (the default) when it must meet it. The contract's tests of a clause with a
     * reason are skipped with an assumption that gives it.
     */
    protected String cannotMeet(Clause clause) {
        return null;
    }

    /**
     * Makes the process that owns {@code module} die, as far as this JVM can stage it: the module
     * goes away without a word to its peers. By default it is finalized, which is just that for
     * a module whose finalize says nothing to its peers; a BTL whose finalize says goodbye
     * overrides this to leave without it. The contract does not finalize the module afterwards.
     *
     * @param itsEndpoints the module's endpoints to every rank (null where it reaches none)
     */
    protected void die(BtlModule module, List<BtlEndpoint> itsEndpoints) {
        module.finalizeModule();
    }

    /** How the BTL's error messages name the peer of rank {@code rank} ("rank 1"). */
    protected String peerName(int rank) {
        return "rank " + rank;
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
        for (BtlModule module : modules) {
            if (gone.add(module)) {
                module.finalizeModule();
            }
        }
    }

    private BtlEndpoint endpoint(int from, int to) {
        return endpoints.computeIfAbsent(from, f -> {
            List<Peer> peers = new ArrayList<>();
            for (int r = 0; r < modules.size(); r++) {
                peers.add(new Peer(r, "localhost", modules.get(r).localAddress()));
            }
            return modules.get(f).addPeers(peers);
        }).get(to);
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

    /** Progresses every module until {@code done} holds, for at most {@code turns} turns; true if it held. */
    private boolean progressFor(int turns, BooleanSupplier done) {
        for (int turn = 0; turn < turns; turn++) {
            if (done.getAsBoolean()) {
                return true;
            }
            for (BtlModule module : modules) {
                if (!gone.contains(module)) {
                    module.progress();
                }
            }
        }
        return done.getAsBoolean();
    }

    /** Sends fragment {@code sequence} from rank {@code from}, progressing every module while it is refused. */
    private void sendRetrying(int from, int to, int sequence, MemorySegment payload) {
        BtlModule sender = modules.get(from);
        BtlEndpoint endpoint = endpoint(from, to);
        assertThat(progressFor(TURNS, () -> sender.send(endpoint, tag(sequence), header(sequence), payload)))
                .as("btl/%s: rank %d's fragment %d to rank %d was still refused after %d progress turns",
                        sender.componentName(), from, sequence, to, TURNS).isTrue();
    }

    private static byte tag(int sequence) {
        return (byte) (1 + sequence % 100);
    }

    /** A payload whose bytes say which fragment it is: {@code length} bytes derived from {@code sequence}. */
    private static byte[] numbered(int sequence, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (sequence * 131 + i * 7);
        }
        return bytes;
    }

    /** Checks that rank {@code receiver} got fragments 0 .. count-1 from rank {@code from}, each once, in order, intact. */
    private void assertArrivedInOrder(int from, int receiver, int count, IntUnaryOperator length) {
        List<Arrival> got = arrivals.get(receiver);
        assertThat(got).as("fragments at rank %d", receiver).hasSize(count);
        for (int i = 0; i < count; i++) {
            Arrival a = got.get(i);
            MemorySegment bytes = MemorySegment.ofArray(a.bytes());
            assertThat(a.from()).as("sender of fragment %d", i).isEqualTo(from);
            assertThat(bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).as("sequence number of arrival %d", i)
                    .isEqualTo(i);
            assertThat(a.tag()).as("tag of fragment %d", i).isEqualTo(tag(i));
            assertThat(bytes.asSlice(HEADER).toArray(ValueLayout.JAVA_BYTE)).as("payload of fragment %d", i)
                    .isEqualTo(numbered(i, length.applyAsInt(i)));
        }
    }

    private void assumeMeets(Clause clause) {
        String why = cannotMeet(clause);
        assumeTrue(why == null, () -> "excused from " + clause + ": " + why);
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

    // ---- put and get ---------------------------------------------------------------------------

    @Test
    protected void dataPutIntoAPeersExposedMemoryArrivesIntactAtItsOffset() {
        open(ranks());
        BtlModule origin = modules.getFirst();
        assumeOffers(origin, BtlProperties.Flag.PUT);
        int target = ranks() - 1;
        BtlModule peer = modules.get(target);
        BtlEndpoint to = endpoint(0, target);
        openTheWay(0, target);
        int tried = 0;
        try (Arena arena = Arena.ofShared()) {
            for (long size : putGetSizes()) {
                if (!origin.canPut(size)) {
                    continue;
                }
                // The data may be anywhere (native, or an array the module copies); the target is exposed native memory.
                for (boolean heapData : new boolean[] {false, true}) {
                    String what = "%d bytes put from %s memory".formatted(size, heapData ? "heap" : "native");
                    MemorySegment data = buffer(arena, heapData, LOCAL_OFFSET + size).asSlice(LOCAL_OFFSET, size);
                    randomize(data, size);
                    MemorySegment window = buffer(arena, false, REMOTE_OFFSET + size + REMOTE_OFFSET);
                    window.fill(GUARD);
                    long key = peer.exposeForPut(window);
                    assertThat(key).as("btl/%s: rank %d exposes %d bytes for put", origin.componentName(), target,
                            window.byteSize()).isNotEqualTo(BtlModule.NOT_EXPOSED);
                    long at = window.address() + REMOTE_OFFSET;
                    boolean placed = whileTheOwnerProgresses(target, () -> retrying(origin, () -> origin.put(to, data,
                            at, key)));
                    peer.unexpose(key);
                    assertThat(placed).as("btl/%s: %s: put still said 'not now' after %d turns", origin.componentName(),
                            what, TURNS).isTrue();
                    assertThat(window.asSlice(REMOTE_OFFSET, size).mismatch(data)).as("%s: first byte that differs", what)
                            .isEqualTo(-1);
                    assertGuarded(window, REMOTE_OFFSET, size, what);
                    tried++;
                }
            }
        }
        assertThat(tried).as("btl/%s offers PUT, but canPut refused every size of %s", origin.componentName(),
                putGetSizes()).isPositive();
    }

    @Test
    protected void dataGotFromAPeersExposedMemoryArrivesIntactAtItsOffset() {
        open(ranks());
        BtlModule reader = modules.getFirst();
        assumeOffers(reader, BtlProperties.Flag.GET);
        // Heap memory only where the module says its GET reaches the heap; there the key alone names the peer's memory.
        boolean[] places = reader.properties().flags().contains(BtlProperties.Flag.HEAP)
                ? new boolean[] {false, true} : new boolean[] {false};
        int owner = ranks() - 1;
        BtlModule peer = modules.get(owner);
        BtlEndpoint from = endpoint(0, owner);
        openTheWay(0, owner);
        int tried = 0;
        try (Arena arena = Arena.ofShared()) {
            for (long size : putGetSizes()) {
                if (!reader.canGet(size)) {
                    continue;
                }
                for (boolean heapSource : places) {
                    for (boolean heapDestination : places) {
                        String what = "%d bytes got from %s memory into %s memory".formatted(size,
                                heapSource ? "heap" : "native", heapDestination ? "heap" : "native");
                        MemorySegment source = buffer(arena, heapSource, REMOTE_OFFSET + size + REMOTE_OFFSET);
                        randomize(source, size);
                        MemorySegment wanted = source.asSlice(REMOTE_OFFSET, size);
                        MemorySegment exposed = heapSource ? wanted : source;
                        long key = peer.exposeForGet(exposed);
                        assertThat(key).as("btl/%s: rank %d exposes %d bytes for get", reader.componentName(), owner,
                                exposed.byteSize()).isNotEqualTo(BtlModule.NOT_EXPOSED);
                        long at = heapSource ? wanted.address() : source.address() + REMOTE_OFFSET;
                        MemorySegment landing = buffer(arena, heapDestination, LOCAL_OFFSET + size + LOCAL_OFFSET);
                        landing.fill(GUARD);
                        MemorySegment into = landing.asSlice(LOCAL_OFFSET, size);
                        boolean got = whileTheOwnerProgresses(owner, () -> retrying(reader, () -> reader.get(from, at,
                                key, into)));
                        peer.unexpose(key);
                        assertThat(got).as("btl/%s: %s: get still said 'not now' after %d turns",
                                reader.componentName(), what, TURNS).isTrue();
                        assertThat(into.mismatch(wanted)).as("%s: first byte that differs", what).isEqualTo(-1);
                        assertGuarded(landing, LOCAL_OFFSET, size, what);
                        tried++;
                    }
                }
            }
        }
        assertThat(tried).as("btl/%s offers GET, but canGet refused every size of %s", reader.componentName(),
                putGetSizes()).isPositive();
    }

    private static void assumeOffers(BtlModule module, BtlProperties.Flag flag) {
        assumeTrue(module.properties().flags().contains(flag), () -> "btl/" + module.componentName()
                + " does not offer " + flag + " (its flags: " + module.properties().flags() + ")");
    }

    /** Tiny, odd, above the eager limit, above max_send_size, and a large rendezvous. */
    private List<Long> putGetSizes() {
        BtlProperties p = modules.getFirst().properties();
        return List.of(1L, 13L, p.eagerLimit() + 3, p.maxSendSize() + 1, PUT_GET_LARGE);
    }

    /** Native memory, or a heap array (of longs: any array type will do) seen as {@code bytes} bytes. */
    private static MemorySegment buffer(Arena arena, boolean heap, long bytes) {
        return heap ? MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]).asSlice(0, bytes)
                : arena.allocate(bytes, 64);
    }

    private static void randomize(MemorySegment memory, long seed) {
        byte[] bytes = new byte[(int) memory.byteSize()];
        new Random(seed).nextBytes(bytes);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, 0, bytes.length);
    }

    /** Checks that nothing of {@code buffer} outside {@code length} bytes at {@code offset} was written. */
    private static void assertGuarded(MemorySegment buffer, long offset, long length, String what) {
        for (long i = 0; i < buffer.byteSize(); i++) {
            if ((i < offset || i >= offset + length) && buffer.get(ValueLayout.JAVA_BYTE, i) != GUARD) {
                fail("%s: byte %d of the buffer, outside the %d bytes at offset %d, was written", what, i, length,
                        offset);
            }
        }
    }

    /** One fragment each way between ranks {@code a} and {@code b} has arrived: connections made on demand are up. */
    private void openTheWay(int a, int b) {
        int atA = arrivals.get(a).size();
        int atB = arrivals.get(b).size();
        sendRetrying(a, b, 0, MemorySegment.ofArray(new byte[0]));
        sendRetrying(b, a, 0, MemorySegment.ofArray(new byte[0]));
        assertThat(progressFor(TURNS, () -> arrivals.get(a).size() > atA && arrivals.get(b).size() > atB
                && !modules.get(a).hasPendingSends() && !modules.get(b).hasPendingSends()))
                .as("btl/%s: a fragment each way between ranks %d and %d within %d turns",
                        modules.get(a).componentName(), a, b, TURNS).isTrue();
    }

    /** Calls {@code call} until it says yes, progressing {@code module} between tries, for at most {@link #TURNS} turns. */
    private static boolean retrying(BtlModule module, BooleanSupplier call) {
        for (int turn = 0; turn < TURNS; turn++) {
            if (call.getAsBoolean()) {
                return true;
            }
            module.progress();
        }
        return false;
    }

    /**
     * Runs {@code call} on this thread while another thread progresses rank {@code owner}'s
     * module, as its own process would (put and get may need the peer to move: GM's directed
     * sends land when it takes them); the other thread owns that module until it is joined.
     */
    private boolean whileTheOwnerProgresses(int owner, BooleanSupplier call) {
        BtlModule module = modules.get(owner);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread peer = Thread.ofPlatform().name("btl-contract rank " + owner).start(() -> {
            try {
                while (!stop.get()) {
                    module.progress();
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        boolean result;
        try {
            result = call.getAsBoolean();
        } finally {
            stop.set(true);
            joinUninterruptibly(peer);
        }
        if (failed.get() != null) {
            throw new AssertionError("btl/" + module.componentName() + ": rank " + owner + "'s progress threw", failed.get());
        }
        return result;
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- back-pressure ---------------------------------------------------------------------------

    @Test
    protected void aSendThatCannotGoNowIsRefusedAndGoesAfterProgressNothingLostOrReordered() {
        assumeMeets(Clause.BACK_PRESSURE);
        open(ranks());
        int receiver = ranks() - 1;
        BtlModule sender = modules.getFirst();
        BtlEndpoint to = endpoint(0, receiver);
        int largest = (int) (sender.properties().maxSendSize() - HEADER);
        IntUnaryOperator length = i -> i % 4 == 0 ? largest : i * 37 % Math.min(largest, 1500);
        sendRetrying(0, receiver, 0, MemorySegment.ofArray(numbered(0, length.applyAsInt(0))));
        assertThat(progressFor(TURNS, () -> arrivals.get(receiver).size() == 1))
                .as("btl/%s: the first fragment within %d turns", sender.componentName(), TURNS).isTrue();

        // The receiver does not progress now: whatever holds fragments for it fills until the sender refuses one.
        int sequence = 1;
        long offered = 0;
        while (sequence < FILL_FRAGMENTS && offered < FILL_BYTES && sender.send(to, tag(sequence), header(sequence),
                MemorySegment.ofArray(numbered(sequence, length.applyAsInt(sequence))))) {
            offered += HEADER + length.applyAsInt(sequence);
            sequence++;
        }
        int refused = sequence;
        assertThat(refused < FILL_FRAGMENTS && offered < FILL_BYTES).as("btl/%s took %d fragments (%d bytes) for"
                + " rank %d, which did not progress, without refusing one: a send that cannot go now must return"
                + " false", sender.componentName(), refused, offered, receiver).isTrue();

        // Refused is not lost: that fragment goes once the receiver progresses, and as many again after it.
        int count = refused + Math.min(refused, 1000);
        for (int i = refused; i < count; i++) {
            sendRetrying(0, receiver, i, MemorySegment.ofArray(numbered(i, length.applyAsInt(i))));
        }
        assertThat(progressFor(TURNS, () -> arrivals.get(receiver).size() >= count)).as("btl/%s: %d of %d fragments"
                + " arrived within %d turns", sender.componentName(), arrivals.get(receiver).size(), count, TURNS).isTrue();
        progressFor(1000, () -> false); // time for a duplicate to show
        assertArrivedInOrder(0, receiver, count, length);
    }

    // ---- a peer that dies ------------------------------------------------------------------------

    @Test
    protected void sendingToAPeerThatDiedFailsWithAnErrorNamingItWithinBoundedProgress() {
        assumeMeets(Clause.PEER_DEATH);
        if (ranks() < 2) {
            fail("a peer's death takes two ranks: a BTL of %d gives cannotMeet(PEER_DEATH) its reason", ranks());
        }
        open(2);
        BtlModule survivor = modules.get(0);
        BtlModule dying = modules.get(1);
        openTheWay(0, 1);
        gone.add(dying);
        die(dying, endpoints.get(1));

        BtlEndpoint toDead = endpoint(0, 1);
        MemorySegment payload = MemorySegment.ofArray(new byte[64]);
        RuntimeException error = null;
        int accepted = 0;
        int refused = 0;
        for (int turn = 0; turn < DEATH_TURNS && error == null; turn++) {
            try {
                if (survivor.send(toDead, (byte) 1, header(turn + 1), payload)) {
                    accepted++;
                } else {
                    refused++;
                }
                survivor.progress();
            } catch (RuntimeException e) {
                error = e;
            }
        }
        if (error == null) {
            fail("btl/%s: rank 1 died, and %d progress turns later rank 0 had had no error: it accepted %d sends to the"
                    + " dead rank and refused %d (a dead peer must be reported, not waited for)",
                    survivor.componentName(), DEATH_TURNS, accepted, refused);
        }
        if (error instanceof PeerFailureException failure) {
            assertThat(failure.rank()).as("the rank of the peer that failed: %s", failure.getMessage()).isEqualTo(1);
        } else {
            assertThat(error.getMessage()).as("btl/%s's error on a dead peer (%s) names it", survivor.componentName(),
                    error).isNotNull().contains(peerName(1));
        }
    }

    // ---- finalize with traffic in flight ---------------------------------------------------------

    @Test
    protected void finalizingWithSendsInFlightThrowsNothingReturnsAndLeavesNoThread() throws InterruptedException {
        assumeMeets(Clause.FINALIZE_IN_FLIGHT);
        Map<Long, String> before = LiveThreads.now();
        int size = ranks();
        open(size);
        for (int r = 1; r < size; r++) {
            openTheWay(0, r);
        }
        // Every rank sends to every one until refused (or for long enough), and none progresses.
        int inFlight = 0;
        int fragment = (int) Math.min(8192, modules.getFirst().properties().maxSendSize() - HEADER);
        for (int from = 0; from < size; from++) {
            for (int to = 0; to < size; to++) {
                if (to == from && size > 1) {
                    continue;
                }
                BtlEndpoint endpoint = endpoint(from, to);
                for (int sequence = 1; sequence <= 1000; sequence++) {
                    if (!modules.get(from).send(endpoint, tag(sequence), header(sequence),
                            MemorySegment.ofArray(numbered(sequence, fragment)))) {
                        break;
                    }
                    inFlight++;
                }
            }
        }
        assertThat(inFlight).as("fragments in flight").isPositive();

        // Finalized on a thread of its own, which then owns the modules: one that hangs fails the test, not the build.
        List<BtlModule> all = List.copyOf(modules);
        gone.addAll(all);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread finalizer = Thread.ofPlatform().name("btl-contract finalize").start(() -> {
            try {
                all.forEach(BtlModule::finalizeModule);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        String name = all.getFirst().componentName();
        if (!finalizer.join(Duration.ofSeconds(60))) {
            AssertionError hung = new AssertionError("btl/" + name + ": finalize with " + inFlight
                    + " fragments in flight did not return within 60 s; it was at:");
            hung.setStackTrace(finalizer.getStackTrace());
            throw hung;
        }
        if (thrown.get() != null) {
            throw new AssertionError("btl/" + name + ": finalize with " + inFlight + " fragments in flight threw",
                    thrown.get());
        }
        assertThat(LiveThreads.startedSince(before, 250)).as("threads btl/%s started and left alive after finalize"
                + " (id → name)", name).isEmpty();
    }
}
