package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jmca.mca.McaException;

/**
 * Fuzzes what coll/mcast reads off the network: datagrams anyone on the port may send (UDP
 * multicast carries no more proof of origin than the job's 32-bit number). Valid datagrams of
 * the job with one field wrong (sender or root out of range, a length of no message, a fragment
 * that is none, a number far ahead or behind, an unknown kind, acknowledgements and credits that
 * no receiver sends, floods of NACKs), truncated ones, another job's and random bytes are put into
 * a rank's carrier, alone on a quiet job or among the job's own broadcasts. Nothing escapes
 * progress, each datagram is counted where dropping it is the design, none makes the rank hold
 * memory it would not hold for the job's own broadcasts, and the broadcasts after (or around)
 * them deliver the root's bytes at every rank.
 *
 * <p>Left out: a datagram shaped as the job's own with a wrong but possible value (a total of
 * another length for a broadcast not begun, an acknowledgement of more than was sent): only the
 * job's number stands between such a forgery and the job, as the component's documentation says.
 */
class McastPacketFuzzTest {

    /** What an injected datagram must do to the target's counters. */
    enum Expect { STRAYS, OVERRUNS, DUPLICATES, NONE, ANY }

    /** The kinds of bad datagrams. */
    enum Bad {
        SHORT(Expect.STRAYS), FOREIGN_JOB(Expect.STRAYS), UNKNOWN_COMMUNICATOR(Expect.STRAYS),
        SENDER_OUT_OF_RANGE(Expect.STRAYS), ROOT_OUT_OF_RANGE(Expect.STRAYS), UNKNOWN_KIND(Expect.STRAYS),
        TOTAL_OUT_OF_RANGE(Expect.STRAYS), NOT_A_FRAGMENT(Expect.STRAYS), SEQ_FAR_AHEAD(Expect.OVERRUNS),
        SEQ_BEHIND(Expect.DUPLICATES), ACK_WRONG(Expect.NONE), GROUP_ACK_WRONG(Expect.NONE),
        NACKS_FAR_AWAY(Expect.NONE), ACK_REQUEST_WRONG(Expect.NONE), RANDOM_BYTES(Expect.ANY);

        final Expect expect;

        Bad(Expect expect) {
            this.expect = expect;
        }
    }

    record Injection(Bad bad, long seed) {
    }

    // ---- an in-memory network: what a test needs of UDP multicast, lossless and in order ----------

    static final class Net {
        final List<Fake> carriers = new ArrayList<>();

        Fake open() {
            Fake carrier = new Fake(this, carriers.size() + 1);
            carriers.add(carrier);
            return carrier;
        }
    }

    static final class Fake implements Carrier {
        final Net net;
        final long address;
        final Set<Integer> groups = new HashSet<>();
        final ArrayDeque<byte[]> inbox = new ArrayDeque<>();

        Fake(Net net, long address) {
            this.net = net;
            this.address = address;
        }

        @Override
        public long address() {
            return address;
        }

        @Override
        public int maxDatagram() {
            return Packet.MAX_DATAGRAM;
        }

        @Override
        public void join(int group) {
            groups.add(group);
        }

        @Override
        public void leave(int group) {
            groups.remove(group);
        }

        private static byte[] bytes(ByteBuffer packet) {
            byte[] bytes = new byte[packet.remaining()];
            packet.get(bytes);
            return bytes;
        }

        @Override
        public void multicast(int group, ByteBuffer packet) {
            byte[] bytes = bytes(packet);
            for (Fake carrier : net.carriers) {
                if (carrier.groups.contains(group)) { // itself too, as with IP_MULTICAST_LOOP
                    carrier.inbox.add(bytes);
                }
            }
        }

        @Override
        public void unicast(long to, ByteBuffer packet) {
            net.carriers.get((int) to - 1).inbox.add(bytes(packet));
        }

        @Override
        public boolean receive(ByteBuffer into) {
            byte[] next = inbox.poll();
            if (next == null) {
                return false;
            }
            into.clear();
            into.put(next).flip();
            return true;
        }

        @Override
        public String description() {
            return "test network, address " + address;
        }

        @Override
        public void close() {
            groups.clear();
        }
    }

    // ---- a job of ranks driven in turn by one thread -------------------------------------------

    static final class Job {
        final int size;
        final McastSettings settings;
        final McastEngine[] engines;
        final McastChannel[] channels;
        final Fake[] carriers;
        final long largest;
        int calls;

        Job(int size, String[] hosts, McastSettings settings) {
            this.size = size;
            this.settings = settings;
            Net net = new Net();
            ThreadRanks fabric = new ThreadRanks("fuzz-job");
            int[] world = IntStream.range(0, size).toArray();
            int job = new Random(size).nextInt();
            engines = new McastEngine[size];
            channels = new McastChannel[size];
            carriers = new Fake[size];
            for (int r = 0; r < size; r++) {
                carriers[r] = net.open();
                engines[r] = new McastEngine(carriers[r], settings, job, r);
                channels[r] = engines[r].open(fabric.communicator(10, r, world, hosts), new Topology(hosts, settings));
            }
            largest = Math.max(settings.maxBytes(), settings.alltoallMaxBlock() * size * size);
        }

        int job() {
            return engines[0].job;
        }

        int identity() {
            return channels[0].identity;
        }

        int fragment() {
            return engines[0].fragmentBytes;
        }

        /** Progress at one rank, as the rank's own thread would run it: nothing may escape. */
        void progress(int rank) {
            try {
                engines[rank].progress();
            } catch (McaException e) {
                throw new AssertionError("a datagram anyone may send failed rank " + rank + "'s progress: " + e, e);
            } catch (RuntimeException | Error e) {
                throw new AssertionError("escaped rank " + rank + "'s progress as other than an MPI error: " + e, e);
            }
        }

        /** Runs every rank until no datagram is in flight and no root keeps a message unacknowledged. */
        void settle() {
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (true) {
                boolean quiet = true;
                for (int r = 0; r < size; r++) {
                    progress(r);
                }
                for (int r = 0; r < size; r++) {
                    quiet &= carriers[r].inbox.isEmpty() && !channels[r].keepsMessages();
                }
                if (quiet) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("the job never settled");
                }
                Thread.onSpinWait();
            }
        }

        /** A broadcast of {@code bytes} from {@code root} at every rank; {@code between} runs between turns. */
        void bcast(int root, int bytes, Runnable between) {
            int call = calls++;
            byte[][] buffers = new byte[size][bytes];
            for (int j = 0; j < bytes; j++) {
                buffers[root][j] = McastJob.expected(call, j, 0);
            }
            BcastCall[] bcasts = new BcastCall[size];
            for (int r = 0; r < size; r++) {
                bcasts[r] = new BcastCall(engines[r], channels[r], MemorySegment.ofArray(buffers[r]), root, 1000 + call);
            }
            long deadline = System.nanoTime() + 3_000_000_000L;
            boolean done = false;
            while (!done) {
                done = true;
                for (int r = 0; r < size; r++) {
                    try {
                        done &= bcasts[r].test();
                    } catch (RuntimeException | Error e) {
                        throw new AssertionError("broadcast " + call + " from " + root + " failed at rank " + r
                                + ": " + e, e);
                    }
                }
                if (!done && System.nanoTime() > deadline) {
                    fail("broadcast %d of %d B from rank %d did not complete within 3 s", call, bytes, root);
                }
                between.run();
            }
            for (int r = 0; r < size; r++) {
                for (int j = 0; j < bytes; j++) {
                    if (buffers[r][j] != McastJob.expected(call, j, 0)) {
                        fail("broadcast %d of %d B from rank %d: byte %d at rank %d is %d, not %d", call, bytes, root,
                                j, r, buffers[r][j], McastJob.expected(call, j, 0));
                    }
                }
            }
        }

        /** What a rank may hold of early messages, at most: the design's bound, whoever sends what. */
        void checkBounded(int rank) {
            assertThat(channels[rank].heldBytes()).as("bytes held at rank %d", rank)
                    .isLessThanOrEqualTo(settings.earlyCapacity() * largest);
            assertThat(channels[rank].nacksRemembered()).as("NACKs remembered at rank %d", rank)
                    .isLessThanOrEqualTo(settings.earlyCapacity() + 4 * settings.window() + 1);
        }

        void close() {
            for (McastEngine engine : engines) {
                engine.close();
            }
        }
    }

    // ---- the bad datagrams ---------------------------------------------------------------------

    static byte[] datagram(int job, int comm, int kind, int flags, int sender, int seq, int root, int total, int offset,
                           int payload, Random random) {
        ByteBuffer b = ByteBuffer.allocate(Packet.HEADER + payload).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(job).putInt(comm).put((byte) kind).put((byte) flags).putShort((short) 0).putInt(sender).putInt(seq)
                .putInt(root).putInt(total).putInt(offset);
        byte[] bytes = b.array();
        for (int i = Packet.HEADER; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt();
        }
        return bytes;
    }

    private static int pick(Random random, int... values) {
        return values[random.nextInt(values.length)];
    }

    /**
     * The datagrams of one bad kind for rank {@code target}, which has delivered every broadcast up
     * to {@code delivered}: a valid DATA of the next broadcast (or a valid control datagram) with
     * one field made wrong.
     */
    static List<byte[]> craft(Job job, Bad bad, Random random, int target, int delivered) {
        int n = job.size;
        int other = (target + 1 + random.nextInt(n - 1)) % n;
        int cap = job.settings.earlyCapacity();
        int frag = job.fragment();
        int total = 1 + random.nextInt(4000);
        int flags = pick(random, 0, Packet.RETRANSMIT, Packet.ACK_NOW, Packet.RETRANSMIT | Packet.ACK_NOW);
        int jobId = job.job();
        int comm = job.identity();
        int seq = delivered + 1;
        int[] outside = {-1, n, n + random.nextInt(1000), Integer.MAX_VALUE, Integer.MIN_VALUE};
        int[] anySeq = {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0, delivered, delivered + 1 + random.nextInt(1000),
            random.nextInt()};
        int payload = Math.min(frag, total);
        return switch (bad) {
            case SHORT -> {
                byte[] whole = datagram(jobId, comm, Packet.DATA, flags, other, seq, other, total, 0, payload, random);
                yield List.of(java.util.Arrays.copyOf(whole, random.nextInt(Packet.HEADER)));
            }
            case FOREIGN_JOB -> List.of(datagram(jobId ^ (1 + random.nextInt(Integer.MAX_VALUE)), comm, Packet.DATA,
                    flags, other, seq, other, total, 0, payload, random));
            case UNKNOWN_COMMUNICATOR -> List.of(datagram(jobId, comm ^ (1 + random.nextInt(Integer.MAX_VALUE)),
                    Packet.DATA, flags, other, seq, other, total, 0, payload, random));
            case SENDER_OUT_OF_RANGE -> List.of(datagram(jobId, comm,
                    pick(random, Packet.DATA, Packet.ACK, Packet.NACK, Packet.GROUP_ACK, Packet.ACK_REQUEST), flags,
                    outside[random.nextInt(outside.length)], seq, other, total, 0, payload, random));
            case ROOT_OUT_OF_RANGE -> List.of(datagram(jobId, comm, Packet.DATA, flags, other, seq,
                    outside[random.nextInt(outside.length)], total, 0, payload, random));
            case UNKNOWN_KIND -> List.of(datagram(jobId, comm, pick(random, 0, 6 + random.nextInt(122),
                    -1 - random.nextInt(128)), flags, other, seq, other, total, 0, payload, random));
            case TOTAL_OUT_OF_RANGE -> {
                int wrong = pick(random, 0, -1, -1 - random.nextInt(Integer.MAX_VALUE), Integer.MIN_VALUE,
                        (int) job.largest + 1, (int) job.largest + 1 + random.nextInt(1 << 30), Integer.MAX_VALUE);
                yield List.of(datagram(jobId, comm, Packet.DATA, flags, other, seq, other, wrong, 0,
                        wrong == 0 ? 0 : frag, random));
            }
            case NOT_A_FRAGMENT -> {
                int fragments = (total + frag - 1) / frag;
                int offset = 0;
                int length = payload;
                switch (random.nextInt(4)) {
                    case 0 -> offset = pick(random, -1, -frag, Integer.MIN_VALUE, -1 - random.nextInt(Integer.MAX_VALUE));
                    case 1 -> offset = pick(random, fragments * frag, (fragments + random.nextInt(1000)) * frag,
                            Integer.MAX_VALUE, Integer.MAX_VALUE - frag + 1);
                    case 2 -> {
                        if (frag > 1) {
                            offset = random.nextInt(fragments) * frag + 1 + random.nextInt(frag - 1);
                        } else {
                            offset = -1;
                        }
                    }
                    default -> {
                        while (length == payload) { // truncated, or more than a fragment
                            length = random.nextInt(frag + 65);
                        }
                    }
                }
                yield List.of(datagram(jobId, comm, Packet.DATA, flags, other, seq, other, total, offset, length,
                        random));
            }
            case SEQ_FAR_AHEAD -> List.of(datagram(jobId, comm, Packet.DATA, flags, other,
                    pick(random, delivered + cap + 1, delivered + cap + 1 + random.nextInt(1 << 20), Integer.MAX_VALUE),
                    other, total, 0, payload, random));
            case SEQ_BEHIND -> List.of(datagram(jobId, comm, Packet.DATA, flags, other,
                    pick(random, delivered, random.nextInt(delivered + 1), 0, -1, Integer.MIN_VALUE,
                            -1 - random.nextInt(Integer.MAX_VALUE)), other, total, 0, payload, random));
            case ACK_WRONG -> List.of(datagram(jobId, comm, Packet.ACK, pick(random, 0, 0, 0, Packet.HELD), other,
                    pick(random, Integer.MAX_VALUE, Integer.MAX_VALUE - random.nextInt(16),
                            anySeq[random.nextInt(anySeq.length)]), other, random.nextInt(),
                    pick(random, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1 << 20, 0, random.nextInt()), 0, random));
            case GROUP_ACK_WRONG -> List.of(datagram(jobId, comm, Packet.GROUP_ACK, 0, other,
                    anySeq[random.nextInt(anySeq.length)], pick(random, target, other, outside[0]), 0, 0, 0, random));
            case NACKS_FAR_AWAY -> {
                List<byte[]> nacks = new ArrayList<>();
                int count = 1 + random.nextInt(80);
                int from = pick(random, delivered + cap + 1, Integer.MAX_VALUE - count, Integer.MIN_VALUE,
                        delivered + cap + 1 + random.nextInt(1 << 24));
                for (int i = 0; i < count; i++) {
                    nacks.add(datagram(jobId, comm, Packet.NACK, 0, other, from + i, other, 0,
                            random.nextInt(), 0, random));
                }
                yield nacks;
            }
            case ACK_REQUEST_WRONG -> List.of(datagram(jobId, comm, Packet.ACK_REQUEST, pick(random, 0, Packet.CREDIT),
                    other, anySeq[random.nextInt(anySeq.length)],
                    random.nextBoolean() ? other : outside[random.nextInt(outside.length)], 0, 0, 0, random));
            case RANDOM_BYTES -> {
                byte[] bytes = new byte[random.nextInt(160)];
                random.nextBytes(bytes);
                if (bytes.length >= 8 && random.nextBoolean()) { // past the job's and communicator's check
                    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(0, jobId).putInt(4, comm);
                }
                yield List.of(bytes);
            }
        };
    }

    private static McastSettings settings(Reliability reliability, int window, int credits, int fragment, boolean smp) {
        return new McastSettings(reliability, 2, window, Math.max(1, window / 3), credits, 64 * 1024, fragment,
                1_000_000L, 100_000L, smp, 2_000_000L, 4, 2048, FaultInjection.Rates.NONE);
    }

    private static String[] hosts(int size, int hosts) {
        return IntStream.range(0, size).mapToObj(r -> "host" + r % hosts).toArray(String[]::new);
    }

    @Provide
    Arbitrary<List<Injection>> injections() {
        return Combinators.combine(Arbitraries.of(Bad.class), Arbitraries.longs()).as(Injection::new).list()
                .ofMinSize(1).ofMaxSize(12);
    }

    /**
     * On a quiet job (every message acknowledged): one bad datagram at a time into one rank, which
     * then progresses; nothing escapes, the datagram is counted as the design says (a stray, an
     * overrun, a duplicate, or nothing for control datagrams that merely say too much), the rank
     * holds no more than before. Then a broadcast from every rank delivers the root's bytes.
     */
    @Property(tries = 200)
    void eachBadDatagramIsCountedAndHarmsNothing(@ForAll @IntRange(min = 2, max = 4) int size,
                                                 @ForAll boolean nackScheme,
                                                 @ForAll @IntRange(min = 2, max = 8) int window,
                                                 @ForAll("credits") int credits,
                                                 @ForAll("fragments") int fragment,
                                                 @ForAll("injections") List<Injection> injections,
                                                 @ForAll long seed) {
        Random random = new Random(seed);
        McastSettings settings = settings(nackScheme ? Reliability.NACK : Reliability.ACK, window, credits, fragment,
                false);
        Job job = new Job(size, hosts(size, size), settings);
        try {
            job.bcast(random.nextInt(size), 1 + random.nextInt(3000), () -> { });
            job.settle();
            for (Injection injection : injections) {
                Random r = new Random(injection.seed());
                int target = r.nextInt(size);
                McastChannel channel = job.channels[target];
                McastCounters counters = job.engines[target].counters;
                long strays = counters.strays;
                long overruns = counters.overruns;
                long duplicates = counters.duplicates;
                long held = channel.heldBytes();
                int nacks = channel.nacksRemembered();
                List<byte[]> datagrams = craft(job, injection.bad(), r, target, job.calls);
                job.carriers[target].inbox.addAll(datagrams);
                job.progress(target);
                String what = injection.bad() + " at rank " + target + " (" + datagrams.size() + " datagrams)";
                long[] moved = {counters.strays - strays, counters.overruns - overruns,
                    counters.duplicates - duplicates};
                long[] expected = switch (injection.bad().expect) {
                    case STRAYS -> new long[] {1, 0, 0};
                    case OVERRUNS -> new long[] {0, 1, 0};
                    case DUPLICATES -> new long[] {0, 0, 1};
                    case NONE -> new long[] {0, 0, 0};
                    case ANY -> moved;
                };
                assertThat(moved).as("%s: strays, overruns, duplicates counted", what).isEqualTo(expected);
                if (injection.bad().expect != Expect.ANY) {
                    assertThat(channel.heldBytes()).as("%s: bytes held", what).isEqualTo(held);
                    assertThat(channel.nacksRemembered()).as("%s: NACKs remembered", what).isEqualTo(nacks);
                }
                job.checkBounded(target);
                job.settle();
            }
            List<Integer> roots = new ArrayList<>(IntStream.range(0, size).boxed().toList());
            Collections.shuffle(roots, random);
            for (int root : roots) {
                job.bcast(root, 1 + random.nextInt(3000), () -> { });
            }
        } finally {
            job.close();
        }
    }

    /**
     * Bad datagrams into random ranks (or multicast to all) between the turns of the job's own
     * broadcasts, every reliability scheme, SMP-aware or not: every broadcast still delivers the
     * root's bytes, nothing escapes, and no rank holds more than the design lets it.
     */
    @Property(tries = 40)
    void broadcastsDeliverAmidBadDatagrams(@ForAll @IntRange(min = 2, max = 5) int size,
                                           @ForAll @IntRange(min = 1, max = 5) int hostCount,
                                           @ForAll Reliability reliability, @ForAll boolean smp,
                                           @ForAll @IntRange(min = 2, max = 8) int window,
                                           @ForAll("credits") int credits,
                                           @ForAll("fragments") int fragment,
                                           @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 6000) Integer> sizes,
                                           @ForAll long seed) {
        Random random = new Random(seed);
        int hosts = Math.min(hostCount, size);
        McastSettings settings = settings(reliability, window, credits, fragment, smp && hosts > 1);
        Job job = new Job(size, hosts(size, hosts), settings);
        Bad[] kinds = Bad.values();
        try {
            for (int bytes : sizes) {
                int call = job.calls + 1; // this broadcast's number
                job.bcast(random.nextInt(size), bytes, () -> {
                    if (random.nextInt(3) != 0) {
                        return;
                    }
                    Bad bad = kinds[random.nextInt(kinds.length)];
                    int target = random.nextInt(size);
                    int delivered = job.channels[target].isDelivered(call) ? call : call - 1;
                    List<byte[]> datagrams = craft(job, bad, random, target, delivered);
                    boolean everyone = random.nextInt(4) == 0;
                    for (int r = 0; r < size; r++) {
                        if (r == target || everyone) {
                            job.carriers[r].inbox.addAll(datagrams);
                            job.progress(r);
                            job.checkBounded(r);
                        }
                    }
                });
            }
        } finally {
            job.close();
        }
    }

    @Provide
    Arbitrary<Integer> credits() {
        return Arbitraries.of(0, 1, 4);
    }

    @Provide
    Arbitrary<Integer> fragments() {
        return Arbitraries.of(7, 512, 1400);
    }
}
