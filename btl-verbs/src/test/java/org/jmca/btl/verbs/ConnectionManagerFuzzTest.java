package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.jmca.btl.verbs.Ibv.QpType;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;

/**
 * Fuzzes the connection manager's messages (32 bytes: type, sender's rank, connection number,
 * QP number, PSN, then a count), as datagrams with its Q_Key from a port that is no rank of the
 * job, to rank 0 of three: messages with a type no rank sends, a sender's rank outside the job or
 * rank 0 itself, a connection number that is none of the rank's (with any QP number, PSN and count,
 * negative ones included), datagrams shorter than a message or longer than the receive buffer,
 * and random bytes. Each malformed one must come out of rank 0's progress as an
 * {@link McaException} naming the rank or the LID it came from (never an index or null-pointer
 * error, and none lost behind another in the same poll), the others must do nothing; and rank
 * 0's connection to rank 1, and rank 1's to rank 2, must then come up and carry a fragment.
 */
class ConnectionManagerFuzzTest {
    private static final int RANKS = 3;
    private static final int FORGER_LID = RANKS + 1;
    private static final int MESSAGE = 32;
    private static final long TIMEOUT_NANOS = 10_000_000_000L;

    /** One datagram to rank 0's connection manager, and what rank 0 must say of it (null: nothing). */
    record Forged(byte[] bytes, String error) {
        static Forged message(int type, int rank, int connection, int qpn, int psn, long count) {
            byte[] bytes = ByteBuffer.allocate(MESSAGE).order(ByteOrder.nativeOrder()).putInt(type).putInt(rank)
                    .putInt(connection).putInt(qpn).putInt(psn).putInt(0).putLong(count).array();
            return new Forged(bytes, expectedError(bytes));
        }

        /** What a correct connection manager says of these bytes. */
        static String expectedError(byte[] bytes) {
            if (bytes.length < MESSAGE) {
                return "rank 0 got a connection-manager datagram of " + bytes.length + " bytes from LID " + FORGER_LID;
            }
            if (bytes.length > MESSAGE) {
                return null; // longer than the receive buffer: the receive fails, as on an HCA, and is posted again
            }
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
            int type = b.getInt(0);
            int rank = b.getInt(4);
            if (rank != 1 && rank != 2) {
                return "rank 0 got a connection-manager message from rank " + rank + ", which is "
                        + (rank == 0 ? "itself" : "not a rank of the job");
            }
            if (type < 1 || type > 7) {
                return "rank 0 got connection-manager message " + type + " from rank " + rank;
            }
            return null;
        }

        @Override
        public String toString() {
            return "Forged[" + bytes.length + " bytes " + Arrays.toString(Arrays.copyOf(bytes, Math.min(bytes.length, 32)))
                    + (error == null ? "" : ", '" + error + "'") + "]";
        }
    }

    /** A connection number that is none of rank 0's (which are 0, then 1 once it connects). */
    private static Arbitrary<Integer> strangeConnections() {
        return Arbitraries.integers().filter(c -> c < 0 || c > 2);
    }

    @Provide
    Arbitrary<List<Forged>> datagrams() {
        Arbitrary<Integer> any = Arbitraries.integers();
        Arbitrary<Long> counts = Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().lessOrEqual(-1));
        Arbitrary<Integer> peers = Arbitraries.of(1, 2);
        Arbitrary<Integer> types = Arbitraries.integers().between(1, 7);
        return Arbitraries.frequencyOf(
                // A type no rank sends, from a rank of the job.
                Tuple.of(2, Combinators.combine(any.filter(t -> t < 1 || t > 7), peers, strangeConnections(), any, any,
                        counts).as(Forged::message)),
                // A sender that is no peer: outside the job, or rank 0 itself.
                Tuple.of(2, Combinators.combine(Arbitraries.oneOf(types, any), Arbitraries.oneOf(Arbitraries.of(0),
                        Arbitraries.integers().lessOrEqual(-1), Arbitraries.integers().greaterOrEqual(RANKS)),
                        any, any, any, counts).as(Forged::message)),
                // A message of the protocol for a connection that is none of rank 0's: nothing happens.
                Tuple.of(3, Combinators.combine(types, peers, strangeConnections(), any, any, counts)
                        .as(Forged::message)),
                // Shorter than a message, or longer than the receive buffer.
                Tuple.of(1, Arbitraries.oneOf(Arbitraries.integers().between(0, MESSAGE - 1),
                        Arbitraries.integers().between(MESSAGE + 1, 200)).map(n -> new Forged(new byte[n],
                        Forged.expectedError(new byte[n])))),
                // Random bytes (but not a message a peer may send for a connection of rank 0's).
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofSize(MESSAGE).filter(bytes -> {
                    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
                    return Forged.expectedError(bytes) != null || b.getInt(8) < 0 || b.getInt(8) > 2;
                }).map(bytes -> new Forged(bytes, Forged.expectedError(bytes)))))
                .list().ofMaxSize(8);
    }

    @Property(tries = 30)
    void aMalformedMessageIsAnErrorNamingItsSenderAndRealConnectionsStillComeUp(
            @ForAll("datagrams") List<Forged> datagrams, @ForAll boolean verbose) throws Exception {
        VerbsSettings settings = new VerbsSettings(new BtlProperties(1024, 2_000, 40_000, 4096, 16 * 1024,
                VerbsBtlComponent.DEFAULTS.flags()), 8, 64, 0, VictimPolicy.LRU, true, 64L << 20, 128 * 1024,
                2_000_000L, 128 * 1024, verbose);
        Path fabric = Files.createTempDirectory("verbs-cm-fuzz");
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)); // verbose's lines
        List<VerbsBtlModule> modules = new ArrayList<>();
        try (Arena arena = Arena.ofShared();
             SoftVerbs forger = SoftVerbs.open(fabric, FORGER_LID, FORGER_LID, settings.ringBytes(), SoftFaults.NONE)) {
            for (int rank = 0; rank < RANKS; rank++) {
                modules.add(new VerbsBtlModule(rank, RANKS, SoftVerbs.open(fabric, rank + 1, FORGER_LID,
                        settings.ringBytes(), SoftFaults.NONE), settings));
            }
            List<Peer> peers = new ArrayList<>();
            for (int rank = 0; rank < RANKS; rank++) {
                peers.add(new Peer(rank, "localhost", modules.get(rank).localAddress()));
            }
            List<List<BtlEndpoint>> endpoints = new ArrayList<>();
            List<List<String>> arrived = new ArrayList<>();
            for (VerbsBtlModule module : modules) {
                endpoints.add(module.addPeers(peers));
                List<String> mine = new ArrayList<>();
                arrived.add(mine);
                module.setReceiver((from, tag, memory, offset, length) -> mine.add(from.rank() + ":" + tag + ":"
                        + memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset)));
            }

            // The forger sends every datagram to rank 0's connection manager before anything else happens.
            Verbs.ProtectionDomain pd = forger.allocPd();
            Verbs.CompletionQueue cq = forger.createCq(64);
            Verbs.QueuePair ud = pd.createQp(QpType.UD, cq, cq, 16, 1);
            VerbsContract.toUdRts(ud);
            MemoryRegion out = pd.register(arena.allocate(8 * 256, 64), 0);
            int cmQpn = Integer.parseInt(modules.getFirst().localAddress().get("verbs.cm_qpn"));
            for (int i = 0; i < datagrams.size(); i++) {
                byte[] bytes = datagrams.get(i).bytes();
                long at = out.address() + 256L * i;
                MemorySegment.ofAddress(at).reinterpret(bytes.length).copyFrom(MemorySegment.ofArray(bytes));
                ud.postSend(SendRequest.datagram(i, List.of(out.sge(at, bytes.length)),
                        new SendRequest.Destination(1, cmQpn, ConnectionManager.QKEY)));
            }
            assertThat(cq.poll(new WorkCompletion[16], 16)).as("the forger's sends went").isEqualTo(datagrams.size());

            // Then rank 0 connects to rank 1, rank 1 to rank 0 and rank 1 to rank 2, each with a fragment.
            send(modules.get(0), endpoints.get(0).get(1), (byte) 1, 11);
            send(modules.get(1), endpoints.get(1).get(0), (byte) 2, 22);
            send(modules.get(1), endpoints.get(1).get(2), (byte) 2, 33);
            List<String> errors = new ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (arrived.get(0).isEmpty() || arrived.get(1).isEmpty() || arrived.get(2).isEmpty()) {
                progress(modules, errors);
                assertThat(System.nanoTime()).as("no connection after 10 s; errors %s; connections:\n%s", errors,
                        modules.stream().map(VerbsBtlModule::describeConnections).toList()).isLessThan(deadline);
            }
            for (int i = 0; i < 10; i++) {
                progress(modules, errors);
            }
            assertThat(arrived.get(1)).containsExactly("0:1:11");
            assertThat(arrived.get(0)).containsExactly("1:2:22");
            assertThat(arrived.get(2)).containsExactly("1:2:33");

            List<String> expected = datagrams.stream().map(Forged::error).filter(e -> e != null).toList();
            assertThat(errors).as("one error per malformed datagram, in order").hasSameSizeAs(expected);
            for (int i = 0; i < errors.size(); i++) {
                assertThat(errors.get(i)).as("error %d", i).contains(expected.get(i));
            }
        } finally {
            SoftFabric.finalizeTogether(modules);
            System.setErr(stderr);
            try (Stream<Path> files = Files.walk(fabric)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void send(VerbsBtlModule module, BtlEndpoint to, byte tag, long value) {
        assertThat(module.send(to, tag, MemorySegment.ofArray(new long[] {value}), MemorySegment.NULL)).isTrue();
    }

    /**
     * One round of progress: rank 0's errors (and those it reports along with them) into
     * {@code errors}; any other throwable, and any error of the other ranks, out.
     */
    private static void progress(List<VerbsBtlModule> modules, List<String> errors) {
        try {
            modules.getFirst().progress();
        } catch (McaException e) {
            errors.add(e.getMessage());
            for (Throwable also : e.getSuppressed()) {
                assertThat(also).isInstanceOf(McaException.class);
                errors.add(also.getMessage());
            }
        }
        modules.get(1).progress();
        modules.get(2).progress();
    }
}
