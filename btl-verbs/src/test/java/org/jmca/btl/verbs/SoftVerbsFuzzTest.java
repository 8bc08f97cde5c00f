package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.jmca.btl.base.SharedRing;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.Ibv.WcStatus;
import org.jmca.mca.McaException;

/**
 * Fuzzes the software device's ring packets ({@code tag} 1..7 as the record's tag, {@code header0}
 * = destination QP | source QP &lt;&lt; 32, {@code header1} = PSN or Q_Key | immediate &lt;&lt; 32, then the
 * payload), as a third port of the host writes them into a port's ring: well-formed packets with
 * one field wrong (the sending LID not the queue pair's peer, a wrong Q_Key, a QP that does not
 * exist, a datagram too long for its receive), records shorter than the 16-byte header, types no
 * port sends, and random bytes. A malformed packet must come out of the port's poll as one
 * {@link McaException} naming the sender's LID, never as an index or state exception, exactly once;
 * a well-formed one must do exactly what a datagram from that port does; and an RC connection
 * between the port and another one must carry its traffic both ways afterwards.
 */
class SoftVerbsFuzzTest {
    private static final int VICTIM = 1;
    private static final int PEER = 2;
    private static final int FORGER = 3;
    private static final int RING = 1 << 16;
    /** The victim's queue pairs are made first on a fresh device, so their numbers are known. */
    private static final int UD_RECEIVES = 16;
    private static final int UD_RECEIVE_BYTES = 128;
    private static final long TIMEOUT_NANOS = 5_000_000_000L;

    /** One record of the forger's ring into the victim's port: its tag and all its bytes (the header first). */
    record Forged(byte tag, byte[] record) {
        static Forged packet(byte tag, int qpn, int sourceQp, int low, int high, int payload) {
            ByteBuffer bytes = ByteBuffer.allocate(16 + payload).order(ByteOrder.nativeOrder());
            bytes.putLong(0, (qpn & 0xFFFFFFFFL) | (long) sourceQp << 32);
            bytes.putLong(8, (low & 0xFFFFFFFFL) | (long) high << 32);
            for (int i = 16; i < 16 + payload; i++) {
                bytes.put(i, (byte) (i * 31 + qpn));
            }
            return new Forged(tag, bytes.array());
        }

        @Override
        public String toString() {
            return "Forged[tag=" + tag + ", " + record.length + " bytes: " + Arrays.toString(
                    Arrays.copyOf(record, Math.min(record.length, 20))) + "]";
        }
    }

    @Provide
    Arbitrary<List<Forged>> packets() {
        Arbitrary<Integer> any = Arbitraries.integers();
        Arbitrary<Integer> payload = Arbitraries.integers().between(0, 200);
        Arbitrary<Byte> types = Arbitraries.bytes().between(SoftVerbs.RC_SEND, SoftVerbs.UD_SEND_IMM);
        Arbitrary<Integer> qpns = Arbitraries.oneOf(Arbitraries.of(FuzzedPorts.RC_QPN, FuzzedPorts.UD_QPN), any);
        return Arbitraries.frequencyOf(
                // Datagrams to the UD queue pair with its Q_Key: a third port may send them (some too long).
                Tuple.of(3, Combinators.combine(Arbitraries.of(SoftVerbs.UD_SEND, SoftVerbs.UD_SEND_IMM), any, any,
                        payload).as((tag, source, imm, n) ->
                        Forged.packet(tag, FuzzedPorts.UD_QPN, source, VerbsContract.QKEY, imm, n))),
                // A packet of any type with its fields anything: another LID than the QP's peer, another
                // Q_Key, a QP that is not there or of the other transport.
                Tuple.of(3, Combinators.combine(types, qpns, any, any, any, payload).as(Forged::packet)),
                // Shorter than the header.
                Tuple.of(1, Combinators.combine(types, Arbitraries.integers().between(0, 15))
                        .as((tag, n) -> new Forged(tag, new byte[n]))),
                // A type no port sends (tag 0 is the ring's padding: no producer can write it).
                Tuple.of(1, Combinators.combine(Arbitraries.oneOf(Arbitraries.bytes().between((byte) 8, Byte.MAX_VALUE),
                        Arbitraries.bytes().between(Byte.MIN_VALUE, (byte) -1)), qpns, any, any, any, payload)
                        .as(Forged::packet)),
                // Random bytes under a random tag.
                Tuple.of(1, Combinators.combine(Arbitraries.bytes().filter(tag -> tag != SharedRing.PAD),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(64)).as(Forged::new)))
                .list().ofMaxSize(8);
    }

    /** What the victim's port must make of one record, as a correct device does. */
    private record Expected(boolean malformed, WorkCompletion datagram, byte[] payload) {
        static Expected of(Forged f) {
            byte[] r = f.record();
            if (r.length < 16 || f.tag() < SoftVerbs.RC_SEND || f.tag() > SoftVerbs.UD_SEND_IMM) {
                return new Expected(true, null, null);
            }
            ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.nativeOrder());
            long header0 = b.getLong(0);
            long header1 = b.getLong(8);
            boolean datagram = f.tag() == SoftVerbs.UD_SEND || f.tag() == SoftVerbs.UD_SEND_IMM;
            if (!datagram || (int) header0 != FuzzedPorts.UD_QPN || (int) header1 != VerbsContract.QKEY) {
                return new Expected(false, null, null); // not for any queue pair that takes it from this LID
            }
            int length = r.length - 16;
            boolean fits = Ibv.GRH_BYTES + length <= UD_RECEIVE_BYTES;
            boolean withImm = f.tag() == SoftVerbs.UD_SEND_IMM;
            // (The device reports the immediate word whatever the type, and a refused datagram's own length.)
            return new Expected(false, new WorkCompletion(0, fits ? WcStatus.SUCCESS : WcStatus.LOC_LEN_ERR,
                    Ibv.WcOpcode.RECV, FuzzedPorts.UD_QPN, fits ? Ibv.GRH_BYTES + length : length, withImm,
                    (int) (header1 >>> 32), (int) (header0 >>> 32), FORGER, true), Arrays.copyOfRange(r, 16, r.length));
        }
    }

    @Property(tries = 50)
    void aMalformedPacketIsAnErrorNamingItsSenderOnceAndTheConnectionBesideItCarriesOn(
            @ForAll("packets") List<Forged> packets) throws Exception {
        Path fabric = Files.createTempDirectory("verbs-soft-fuzz");
        try (Arena arena = Arena.ofShared();
             SoftVerbs victim = SoftVerbs.open(fabric, VICTIM, FORGER, RING, SoftFaults.NONE);
             SoftVerbs peer = SoftVerbs.open(fabric, PEER, FORGER, RING, SoftFaults.NONE)) {
            FuzzedPorts ports = FuzzedPorts.connect(victim, VICTIM, peer, PEER, arena, UD_RECEIVES, UD_RECEIVE_BYTES,
                    qp -> { });
            Verbs.ProtectionDomain pdV = ports.pdV();
            Verbs.ProtectionDomain pdP = ports.pdP();
            Verbs.CompletionQueue cqV = ports.cqV();
            Verbs.CompletionQueue udCq = ports.udCq();
            Verbs.CompletionQueue cqP = ports.cqP();
            Verbs.QueuePair rcV = ports.rcV();
            MemoryRegion udBuffers = ports.udBuffers();
            MemoryRegion bufV = pdV.register(arena.allocate(128, 64), Ibv.ACCESS_LOCAL_WRITE);
            MemoryRegion bufP = pdP.register(arena.allocate(128, 64), Ibv.ACCESS_LOCAL_WRITE);

            // The forger is the only producer of its ring at the victim (no port 3 is open).
            SharedRing forged = SoftPort.open(fabric, VICTIM, arena).ring(FORGER);
            for (Forged f : packets) {
                assertThat(forged.offer(f.tag(), MemorySegment.ofArray(f.record()), MemorySegment.NULL)).isTrue();
            }
            List<Expected> expected = packets.stream().map(Expected::of).toList();

            // Then the connection beside it, both ways: 8 bytes each.
            ports.postCrossTraffic(bufV, bufP);

            List<String> errors = new ArrayList<>();
            List<WorkCompletion> onVictim = new ArrayList<>();
            List<WorkCompletion> onPeer = new ArrayList<>();
            List<WorkCompletion> datagrams = new ArrayList<>();
            long wantedDatagrams = expected.stream().filter(e -> e.datagram() != null).count();
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (onVictim.size() < 2 || onPeer.size() < 2 || datagrams.size() < wantedDatagrams) {
                FuzzedPorts.pollInto(cqV, onVictim, errors);
                FuzzedPorts.pollInto(udCq, datagrams, errors);
                FuzzedPorts.pollInto(cqP, onPeer, errors);
                assertThat(System.nanoTime()).as("after 5 s: victim %s, peer %s, datagrams %s, errors %s", onVictim,
                        onPeer, datagrams, errors).isLessThan(deadline);
            }
            for (int i = 0; i < 10; i++) { // nothing more comes, and nothing is reported twice
                FuzzedPorts.pollInto(cqV, onVictim, errors);
                FuzzedPorts.pollInto(udCq, datagrams, errors);
            }

            assertThat(errors).as("one error per malformed packet")
                    .hasSize((int) expected.stream().filter(Expected::malformed).count());
            assertThat(errors).allSatisfy(e -> assertThat(e).contains("port " + VICTIM)
                    .contains("from LID " + FORGER).doesNotContain("Exception"));
            assertThat(onVictim).extracting(WorkCompletion::wrId).containsExactlyInAnyOrder(7L, 9L);
            assertThat(onPeer).extracting(WorkCompletion::wrId).containsExactlyInAnyOrder(8L, 10L);
            FuzzedPorts.assertCrossTraffic(bufV, bufP, onVictim, onPeer);

            List<Expected> delivered = expected.stream().filter(e -> e.datagram() != null).toList();
            assertThat(datagrams).hasSameSizeAs(delivered);
            for (int i = 0; i < datagrams.size(); i++) {
                WorkCompletion got = datagrams.get(i);
                Expected want = delivered.get(i);
                assertThat(got).as("datagram %d", i).isEqualTo(new WorkCompletion(i, want.datagram().status(),
                        want.datagram().opcode(), want.datagram().qpNum(), want.datagram().byteLength(),
                        want.datagram().withImm(), want.datagram().immData(), want.datagram().srcQp(),
                        want.datagram().slid(), true));
                if (got.ok()) {
                    byte[] placed = FuzzedPorts.bytes(udBuffers).asSlice((long) i * UD_RECEIVE_BYTES + Ibv.GRH_BYTES,
                            want.payload().length).toArray(ValueLayout.JAVA_BYTE);
                    assertThat(placed).as("datagram %d's bytes", i).isEqualTo(want.payload());
                }
            }
            assertThat(rcV.state()).isEqualTo(QpState.RTS);
        } finally {
            try (var files = Files.list(fabric)) {
                files.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(fabric);
        }
    }

    /** Polls once: completions into {@code into}; a device error's message into {@code errors}, any other throwable out. */
}
