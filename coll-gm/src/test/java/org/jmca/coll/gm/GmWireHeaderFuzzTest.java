package org.jmca.coll.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.btl.gm.EmulatedGmPort;
import org.jmca.coll.base.Tree;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmPort;
import org.jmca.common.gm.GmPriority;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;

/**
 * Fuzzes coll/gm's own 48-byte message header as another GM node writes it: an intruder's port
 * on the emulated fabric sends raw messages to a rank's coll/gm port. A message of a call in
 * flight with one field wrong (shorter than the header, a source no rank of the communicator, an
 * unknown kind, an eager length beyond its payload, a rendezvous of no bytes, a number out of the
 * stream's window or twice, a CTS or FIN that no transfer waits for or beyond its message, an
 * acknowledgement of more than was sent) fails the calls with an MPI error naming the node that
 * sent it, never another exception and never a hang. Messages of calls not begun here are kept
 * up to a limit, beyond which the same holds; below it, the job's collectives around them give
 * the right result.
 */
class GmWireHeaderFuzzTest {
    private static final int CONTEXT = 7;
    private static final int TAG = -1000;
    private static final GmPort.SendCallback IGNORE = status -> { };

    /** How one field of a message of the call in flight is wrong. */
    enum Bad {
        SHORT, SOURCE_OUT_OF_RANGE, UNKNOWN_KIND, EAGER_LONGER_THAN_ITS_PAYLOAD, RENDEZVOUS_OF_NO_BYTES,
        SEQ_OUT_OF_WINDOW, TWICE, CTS_OF_NO_TRANSFER, CTS_BEYOND_ITS_MESSAGE, FIN_OF_NO_TRANSFER,
        ACK_OF_MORE_THAN_SENT, SEGMENT_THE_BROADCAST_HAS_NOT
    }

    /** A GM node that sends what the test writes, raw, to coll/gm's port of other nodes. */
    static final class Intruder implements AutoCloseable {
        final int node;
        private final EmulatedGmPort port;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment out;
        private boolean inFlight;

        Intruder(Path fabric, int node, int nodes) {
            this.node = node;
            port = EmulatedGmPort.open(fabric, node, nodes, GmEngine.PORT, new EmulatedGmPort.Settings(64 * 1024, 2,
                    8, 0, 0));
            MemorySegment memory = arena.allocate(9 * 8192L, 4096);
            port.register(memory);
            out = memory.asSlice(0, 8192);
            for (int i = 0; i < 8; i++) { // for what a rank answers it (acknowledgements, CTSs, RTSs)
                port.provideReceiveBuffer(memory.asSlice(8192L * (i + 1), 8192), GmEngine.SMALL_CLASS,
                        i % 2 == 0 ? GmPriority.HIGH : GmPriority.LOW, i);
            }
        }

        /** Starts sending {@code bytes} to node {@code to}; {@link #sent} once it is in a buffer there. */
        void send(int to, byte[] bytes, GmPriority priority) {
            while (inFlight) {
                poll();
                Thread.onSpinWait();
            }
            MemorySegment.copy(bytes, 0, out, ValueLayout.JAVA_BYTE, 0, bytes.length);
            inFlight = true;
            port.send(out.asSlice(0, bytes.length), GmEngine.SMALL_CLASS, priority, to, GmEngine.PORT,
                    status -> inFlight = false);
        }

        boolean sent() {
            poll();
            return !inFlight;
        }

        void poll() {
            while (port.receive() instanceof GmEvent.Received r) {
                port.provideReceiveBuffer(r.buffer(), r.size(), r.priority(), r.tag());
            }
        }

        @Override
        public void close() {
            port.close();
            arena.close();
        }
    }

    static byte[] message(int context, int tag, int source, int seq, int kind, int flags, long a, long b, long c,
                          int payload, Random random) {
        byte[] bytes = new byte[Wire.HEADER + payload];
        random.nextBytes(bytes);
        Wire.write(MemorySegment.ofArray(bytes), context, tag, source, seq, kind, flags, a, b, c);
        return bytes;
    }

    private static int pick(Random random, int... values) {
        return values[random.nextInt(values.length)];
    }

    private static GmSettings settings(int window, boolean pipeline) {
        return new GmSettings(4096, window, pipeline ? 2048 : 0, false, 3, 6, 3, 2, 2_000_000_000L);
    }

    private static Path fabric() throws Exception {
        return Files.createTempDirectory("coll-gm-fuzz");
    }

    private static void delete(Path fabric) throws Exception {
        try (Stream<Path> files = Files.walk(fabric)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Progress at the rank until it throws (returned) or {@code turns} turns after the intruder's send arrived. */
    private static McaException progressUntilFailure(GmEngine engine, Intruder intruder, int turns) {
        long deadline = System.nanoTime() + 3_000_000_000L;
        int after = 0;
        while (after < turns) {
            try {
                synchronized (engine) {
                    engine.progress();
                }
            } catch (McaException e) {
                return e;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("escaped coll/gm's progress as other than an MPI error: " + e, e);
            }
            if (intruder.sent()) {
                after++;
            }
            if (System.nanoTime() > deadline) {
                fail("no end within 3 s");
            }
        }
        return null;
    }

    /**
     * One message of the call in flight at rank 0, with one field wrong, from a node that is rank
     * 1 or no rank at all; rank 0 has posted a receive from rank 1 or not, and (where rank 1 is the
     * intruder, whose port is open) a rendezvous send to it waits for its CTS; or a broadcast from
     * rank 1 takes the eager segments of rank 0, a leaf of its tree. The calls fail
     * with an MPI error that names the intruder's node; nothing else escapes; the rank ends in time.
     */
    @Property(tries = 60)
    void aMalformedHeaderIsAnMpiErrorNamingItsSender(@ForAll @IntRange(min = 2, max = 4) int size,
                                                    @ForAll Bad bad, @ForAll boolean intruderIsRankOne,
                                                    @ForAll boolean posted, @ForAll boolean pipeline,
                                                    @ForAll @IntRange(min = 1, max = 8) int window,
                                                    @ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Path fabric = fabric();
        int intruderNode = intruderIsRankOne ? 2 : size + 1;
        int[] nodes = new int[size];
        int[] jobRanks = new int[size];
        for (int r = 0; r < size; r++) {
            nodes[r] = r + 1;
            jobRanks[r] = 10 + r;
        }
        GmEngine engine = new GmEngine(new TestNic(fabric, 1, size + 1, 64 * 1024), settings(window, pipeline));
        try (Intruder intruder = new Intruder(fabric, intruderNode, size + 1)) {
            GmComm comm = new GmComm("test communicator", 0, size, CONTEXT, nodes, jobRanks);
            engine.learn(comm);
            boolean rendezvous = intruderIsRankOne;
            int sent = 0;
            int broadcastBytes = 100 + random.nextInt(3000);
            int segmentBytes = pick(random, 0, 512);
            synchronized (engine) {
                CallChannel channel = engine.open(comm, TAG);
                if (bad == Bad.SEGMENT_THE_BROADCAST_HAS_NOT) { // a broadcast from rank 1 takes its eager segments
                    assertThat(new TreeBcast(channel, MemorySegment.ofArray(new byte[broadcastBytes]),
                            Tree.kary(0, 1, size, size), segmentBytes).test()).isFalse();
                } else if (posted) {
                    channel.irecv(MemorySegment.ofArray(new byte[64]), 1, 0);
                }
                if (rendezvous) {
                    channel.isend(MemorySegment.ofArray(new byte[10_000]), 1, 0);
                    sent++;
                }
            }
            int payload = random.nextInt(64);
            int source = 1;
            int seq = 0;
            int kind = Wire.EAGER;
            long a = payload;
            long b = 0;
            long c = 0;
            GmPriority priority = GmPriority.LOW;
            switch (bad) {
                case SHORT -> { }
                case SOURCE_OUT_OF_RANGE -> source = pick(random, -1, size, size + random.nextInt(1000),
                        Integer.MAX_VALUE, Integer.MIN_VALUE);
                case UNKNOWN_KIND -> kind = pick(random, 0, 6 + random.nextInt(1000), -1 - random.nextInt(1000),
                        Integer.MIN_VALUE, Integer.MAX_VALUE);
                case EAGER_LONGER_THAN_ITS_PAYLOAD -> a = random.nextBoolean() ? payload + 1 + random.nextInt(100_000)
                        : pick(random, -1, Integer.MIN_VALUE) * (random.nextBoolean() ? 1L : 1L << 32);
                case RENDEZVOUS_OF_NO_BYTES -> {
                    kind = Wire.RTS;
                    a = random.nextBoolean() ? 0 : -1 - random.nextInt(Integer.MAX_VALUE);
                }
                case SEQ_OUT_OF_WINDOW -> {
                    seq = pick(random, -1, window, window + random.nextInt(1000), Integer.MAX_VALUE,
                            Integer.MIN_VALUE);
                    kind = random.nextBoolean() ? Wire.EAGER : Wire.RTS;
                    a = kind == Wire.EAGER ? payload : 10_000;
                }
                case TWICE -> { } // the valid message, sent twice
                case SEGMENT_THE_BROADCAST_HAS_NOT -> {
                    seq = random.nextInt(window);
                    long offset = (long) seq * segmentBytes;
                    long segment = segmentBytes == 0 ? (seq == 0 ? broadcastBytes : -1)
                            : offset < broadcastBytes ? Math.min(segmentBytes, broadcastBytes - offset) : -1;
                    if (segment == payload) { // the last segment may be as short as this payload: then it is right
                        payload++;
                        a = payload;
                    }
                }
                case CTS_OF_NO_TRANSFER -> {
                    kind = Wire.CTS;
                    seq = rendezvous ? 1 + random.nextInt(100) : random.nextInt(100);
                    b = 1 + random.nextInt(1000);
                    priority = GmPriority.HIGH;
                }
                case CTS_BEYOND_ITS_MESSAGE -> {
                    kind = Wire.CTS;
                    long[][] wrong = {{-1, 100}, {0, 0}, {0, -5}, {9_000, 2_000}, {10_000, 1}, {Long.MAX_VALUE, 10},
                        {5, Long.MAX_VALUE}, {Long.MIN_VALUE, 64}};
                    long[] w = wrong[random.nextInt(wrong.length)];
                    c = w[0];
                    b = w[1];
                    priority = GmPriority.HIGH;
                }
                case FIN_OF_NO_TRANSFER -> {
                    kind = Wire.FIN;
                    seq = random.nextInt(100);
                    priority = GmPriority.HIGH;
                }
                case ACK_OF_MORE_THAN_SENT -> {
                    kind = Wire.ACK;
                    a = random.nextBoolean() ? sent + 1 + random.nextInt(1000)
                            : pick(random, -1, Integer.MIN_VALUE, Integer.MAX_VALUE) * (random.nextBoolean() ? 1L : 3L);
                    priority = GmPriority.HIGH;
                }
            }
            byte[] message = message(CONTEXT, TAG, source, seq, kind, 0, a, b, c, payload, random);
            if (bad == Bad.SHORT) {
                message = java.util.Arrays.copyOf(message, random.nextInt(Wire.HEADER));
            }
            if (bad == Bad.CTS_BEYOND_ITS_MESSAGE) { // the RTS first, so that the transfer waits for its CTS
                McaException early = progressUntilFailure(engine, intruder, 3);
                assertThat(early).as("before the CTS").isNull();
            }
            if (bad == Bad.TWICE) {
                intruder.send(1, message, priority);
                assertThat(progressUntilFailure(engine, intruder, 1)).as("the first time").isNull();
            }
            intruder.send(1, message, priority);
            McaException failure = progressUntilFailure(engine, intruder, 3);
            assertThat(failure).as("%s: an MPI error", bad).isNotNull();
            assertThat(failure.getMessage()).as("%s: the error names the sender", bad)
                    .contains("malformed message from").contains("GM node " + intruderNode);
            if (intruderIsRankOne) {
                assertThat(failure.getMessage()).contains("job rank 11");
            }
        } finally {
            engine.close();
            delete(fabric);
        }
    }

    /**
     * Messages of calls not begun at a rank (another context, a tag the job does not use, any
     * kind and length) from a node of no rank: they are kept up to the engine's limit, and the next
     * one beyond fails the rank with an MPI error naming the node; an acknowledgement of a call
     * not in flight is dropped.
     */
    @Property(tries = 80)
    void messagesOfCallsNotBegunAreKeptUpToALimit(@ForAll @IntRange(min = 100, max = 20_000) int limit,
                                                 @ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Path fabric = fabric();
        GmEngine engine = new GmEngine(new TestNic(fabric, 1, 3, 64 * 1024), settings(4, false));
        engine.earlyLimit = limit;
        try (Intruder intruder = new Intruder(fabric, 3, 3)) {
            engine.learn(new GmComm("test communicator", 0, 2, CONTEXT, new int[] {1, 2}, new int[] {0, 1}));
            long kept = 0;
            McaException failure = null;
            while (failure == null) {
                int payload = random.nextInt(600);
                boolean ack = random.nextInt(5) == 0;
                byte[] message = message(random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(),
                        ack ? Wire.ACK : random.nextInt(), random.nextInt(), random.nextLong(), random.nextLong(),
                        random.nextLong(), payload, random);
                intruder.send(1, message, random.nextBoolean() ? GmPriority.HIGH : GmPriority.LOW);
                failure = progressUntilFailure(engine, intruder, 2);
                if (failure == null && !ack) {
                    kept += message.length;
                }
                assertThat(engine.earlyBytes()).as("bytes kept").isEqualTo(kept).isLessThanOrEqualTo(limit);
                assertThat(kept).as("kept before the failure").isLessThanOrEqualTo(limit);
            }
            assertThat(failure.getMessage()).contains("GM node 3").contains("not begun here");
        } finally {
            engine.close();
            delete(fabric);
        }
    }


    /**
     * The job's broadcasts and allreduces, ranks as threads, while a node of no rank sends them
     * messages of calls they never begin and acknowledgements of none: every result is right and
     * no rank keeps more than its limit.
     */
    @Property(tries = 12)
    void collectivesAreRightAmidMessagesOfOtherCalls(@ForAll @IntRange(min = 2, max = 3) int ranks,
                                                     @ForAll @IntRange(min = 1, max = 3000) int count,
                                                     @ForAll @IntRange(min = 0, max = 30) int strays,
                                                     @ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Path fabric = fabric();
        int intruderNode = ranks + 1;
        GmSettings settings = settings(4, true);
        ExecutorService threads = Executors.newFixedThreadPool(ranks);
        List<GmEngine> engines = new ArrayList<>();
        try (Intruder intruder = new Intruder(fabric, intruderNode, ranks + 1)) {
            int[] nodes = new int[ranks];
            int[] jobRanks = new int[ranks];
            for (int r = 0; r < ranks; r++) {
                nodes[r] = r + 1;
                jobRanks[r] = r;
                engines.add(new GmEngine(new TestNic(fabric, r + 1, ranks + 1, 64 * 1024), settings));
                engines.get(r).earlyLimit = 1 << 20;
            }
            SelectionMap map = SelectionMap.load(null);
            java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean intruderDone = new java.util.concurrent.atomic.AtomicBoolean();
            List<Future<String>> results = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                GmEngine engine = engines.get(r);
                GmCollModule module = new GmCollModule(engine, new Names(rank, ranks),
                        new GmComm("test communicator", rank, ranks, CONTEXT, nodes, jobRanks), map);
                results.add(threads.submit(() -> {
                    String wrong = null;
                    for (int call = 0; call < 4 && wrong == null; call++) {
                        boolean bcast = call % 2 == 0;
                        int root = call % ranks;
                        MemorySegment data = MemorySegment.ofArray(new int[count]);
                        for (int i = 0; i < count; i++) {
                            data.setAtIndex(ValueLayout.JAVA_INT, i, bcast && rank != root ? 0 : rank * 1000 + i + call);
                        }
                        MemorySegment result = bcast ? data : MemorySegment.ofArray(new int[count]);
                        CollRequest request = module.start(bcast ? CollFunction.BCAST : CollFunction.ALLREDUCE,
                                CollCall.of(bcast ? null : data, result, count, 4, root, IntSum.SUM, TAG - call));
                        long deadline = System.nanoTime() + 10_000_000_000L;
                        while (!request.test()) {
                            Thread.yield();
                            if (System.nanoTime() > deadline) {
                                return "call " + call + " at rank " + rank + " did not finish";
                            }
                        }
                        for (int i = 0; i < count && wrong == null; i++) {
                            int expected = 0;
                            for (int from = 0; from < ranks; from++) {
                                expected += bcast ? (from == root ? from * 1000 + i + call : 0)
                                        : from * 1000 + i + call;
                            }
                            if (result.getAtIndex(ValueLayout.JAVA_INT, i) != expected) {
                                wrong = "call " + call + " at rank " + rank + ", element " + i + ": "
                                        + result.getAtIndex(ValueLayout.JAVA_INT, i) + ", not " + expected;
                            }
                        }
                    }
                    finished.incrementAndGet();
                    while (finished.get() < ranks || !intruderDone.get()) { // its messages need a taker
                        engine.progressBetweenCalls();
                        Thread.yield();
                    }
                    return wrong;
                }));
            }
            for (int i = 0; i < strays; i++) {
                boolean ack = random.nextInt(4) == 0;
                int context = ack || random.nextBoolean() ? CONTEXT : random.nextInt();
                int tag = ack || context == CONTEXT ? 1 + random.nextInt(Integer.MAX_VALUE) : random.nextInt();
                byte[] message = message(context, tag, random.nextInt(), random.nextInt(),
                        ack ? Wire.ACK : random.nextInt(), random.nextInt(), random.nextLong(), random.nextLong(),
                        random.nextLong(), random.nextInt(2000), random);
                intruder.send(1 + random.nextInt(ranks), message, random.nextBoolean() ? GmPriority.HIGH
                        : GmPriority.LOW);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!intruder.sent() && System.nanoTime() < deadline) {
                    Thread.yield();
                }
            }
            intruderDone.set(true);
            for (int r = 0; r < ranks; r++) {
                try {
                    assertThat(results.get(r).get(30, TimeUnit.SECONDS)).as("rank %d", r).isNull();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError("rank " + r + ": " + e.getCause(), e.getCause());
                }
                assertThat(engines.get(r).earlyBytes()).isLessThanOrEqualTo(1 << 20);
            }
        } finally {
            threads.shutdownNow();
            engines.forEach(GmEngine::close);
            delete(fabric);
        }
    }
}
