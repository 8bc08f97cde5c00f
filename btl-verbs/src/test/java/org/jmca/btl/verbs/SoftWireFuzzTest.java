package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.jmca.btl.base.Sockets;
import org.jmca.btl.verbs.Ibv.WcStatus;
import org.jmca.mca.fuzz.FuzzSockets;

/**
 * Fuzzes the software device's socket wire ({@link SoftWire}): a raw client that introduces
 * itself as a port of the fabric with the job's key, then sends frames ({@code int length}
 * big-endian, {@code byte tag}, two header words in native order, {@code length - 16} payload
 * bytes): packets for the port's rings, RDMA WRITEs, READs and atomics into an exposed region
 * (and outside it, with a wrong rkey, with lengths that overflow an address), multicast datagrams,
 * and frames with one field wrong (a length below 16 or above the frame buffer, a type no port
 * sends, operands cut short), plus random bytes. A correct agent is modelled: it must forward
 * exactly the packets, place exactly the bytes and give exactly the answers the model does up to
 * the first bad frame, then drop the connection with a message naming the LID; it must forward
 * nothing the port's poll refuses (no error comes out of it), must not hang, and the port's rings
 * must go on: the next connection of that LID and the RC traffic with another port get through.
 */
class SoftWireFuzzTest {
    private static final long MAGIC = 0x4a4d43412d575231L; // SoftWire's
    private static final byte[] KEY = "soft wire fuzz".getBytes(StandardCharsets.UTF_8);
    private static final int VICTIM = 1;
    private static final int PEER = 2;
    private static final int FORGER = 3;
    private static final int RING = 1 << 16;
    /** The agent's frame buffer: what a frame other than a WRITE may carry. */
    private static final int FRAME = RING / 4 + 64;
    private static final int MLID = 0xC00F;
    private static final int UD_RECEIVES = 24;
    private static final int UD_RECEIVE_BYTES = 128;
    private static final int EXPOSED = 4096;
    private static final long LAST = 1L << 63;
    private static final long TIMEOUT_NANOS = 5_000_000_000L;

    /** One piece of what the client writes; an exposed region's address and rkey are filled in when written. */
    private sealed interface Piece {
        void writeTo(ByteBuffer out, long base, int rkey);
    }

    /**
     * A frame; {@code length} null for the right one. With {@code keyed}, header0's low word is the
     * exposed region's rkey; with {@code relative}, header1 is an offset from the region's start.
     */
    private record Frame(Integer length, byte tag, long header0, long header1, boolean keyed, boolean relative,
                         byte[] payload) implements Piece {
        public void writeTo(ByteBuffer out, long base, int rkey) {
            out.order(ByteOrder.BIG_ENDIAN).putInt(length != null ? length : 16 + payload.length).put(tag)
                    .order(ByteOrder.nativeOrder())
                    .putLong(keyed ? header0 & 0xFFFF_FFFF_0000_0000L | rkey & 0xFFFF_FFFFL : header0)
                    .putLong(relative ? base + header1 : header1).put(payload);
        }

        @Override
        public String toString() {
            return "Frame[" + (length == null ? "" : "length " + length + ", ") + "tag " + tag + ", 0x"
                    + Long.toHexString(header0) + (keyed ? " (rkey)" : "") + ", " + (relative ? "base + " : "0x")
                    + Long.toHexString(header1) + ", " + payload.length + " bytes]";
        }
    }

    private record Raw(byte[] bytes) implements Piece {
        public void writeTo(ByteBuffer out, long base, int rkey) {
            out.put(bytes);
        }

        @Override
        public String toString() {
            return "Raw" + Arrays.toString(bytes);
        }
    }

    private static byte[] longs(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.nativeOrder());
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    private static byte[] atomicOperands(byte opcode, long compareAdd, long swap) {
        return ByteBuffer.allocate(17).order(ByteOrder.nativeOrder()).put(opcode).putLong(compareAdd).putLong(swap)
                .array();
    }

    @Provide
    Arbitrary<List<Piece>> streams() {
        Arbitrary<Long> any = Arbitraries.longs();
        Arbitrary<Integer> anyInt = Arbitraries.integers();
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(80);
        Arbitrary<Long> offsets = Arbitraries.oneOf(Arbitraries.longs().between(0, EXPOSED + 64),
                Arbitraries.longs().between(-64, -1));
        Arbitrary<Boolean> rightKey = Arbitraries.of(true, true, true, false);
        Arbitrary<Byte> forwarded = Arbitraries.bytes().between(SoftVerbs.RC_SEND, SoftVerbs.UD_SEND_IMM);
        Arbitrary<Byte> requests = Arbitraries.bytes().between(SoftWire.WRITE, SoftWire.MCAST_IMM);
        Arbitrary<Piece> piece = Arbitraries.frequencyOf(
                // A datagram for the UD queue pair, with its Q_Key: forwarded and placed.
                Tuple.of(3, Combinators.combine(Arbitraries.of(SoftVerbs.UD_SEND, SoftVerbs.UD_SEND_IMM), anyInt, anyInt,
                        small).as((tag, source, imm, bytes) -> new Frame(null, tag,
                        FuzzedPorts.UD_QPN & 0xFFFFFFFFL | (long) source << 32, VerbsContract.QKEY & 0xFFFFFFFFL | (long) imm << 32,
                        false, false, bytes))),
                // A packet with its fields anything (QPs that are not there, Q_Keys, PSNs): forwarded, ignored.
                Tuple.of(2, Combinators.combine(forwarded, Arbitraries.oneOf(Arbitraries.of((long) FuzzedPorts.RC_QPN, (long) FuzzedPorts.UD_QPN),
                        any), any, small).as((tag, h0, h1, bytes) -> new Frame(null, tag, h0, h1, false, false, bytes))),
                // Multicast, to the group the UD queue pair is in or another.
                Tuple.of(1, Combinators.combine(Arbitraries.of(SoftWire.MCAST, SoftWire.MCAST_IMM),
                        Arbitraries.of(MLID, MLID, 0xC010), anyInt, Arbitraries.of(VerbsContract.QKEY, 7), anyInt, small)
                        .as((tag, mlid, source, qkey, imm, bytes) -> new Frame(null, tag,
                                (long) mlid << 32 | source & 0xFFFFFFFFL, qkey & 0xFFFFFFFFL | (long) imm << 32, false,
                                false, bytes))),
                // RDMA WRITE, inside the region or not, with the rkey or not, the last chunk or not.
                Tuple.of(2, Combinators.combine(rightKey, offsets, anyInt, Arbitraries.of(true, false),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(300)).as((keyed, offset, id, last, bytes) ->
                        new Frame(null, SoftWire.WRITE, (last ? LAST : 0) | (long) id << 32, offset, keyed, true, bytes))),
                // A WRITE refused (no rkey) of more than the agent's frame buffer: read through and dropped.
                Tuple.of(1, Combinators.combine(anyInt, Arbitraries.integers().between(FRAME + 1, 2 * FRAME))
                        .as((id, n) -> new Frame(null, SoftWire.WRITE, LAST | (long) id << 32, 0, false, true,
                                new byte[n]))),
                // RDMA READ of a length that fits, or is anything, or overflows the address.
                Tuple.of(2, Combinators.combine(rightKey, offsets, anyInt, Arbitraries.oneOf(
                        Arbitraries.longs().between(0, 512), any,
                        Arbitraries.longs().between(Long.MAX_VALUE - (1L << 20), Long.MAX_VALUE))).as((keyed, offset, id, n) ->
                        new Frame(null, SoftWire.READ, (long) id << 32, offset, keyed, true, longs(n)))),
                // Atomics, aligned or not.
                Tuple.of(1, Combinators.combine(rightKey, offsets, anyInt, Arbitraries.of(
                        (byte) Ibv.Opcode.ATOMIC_FETCH_AND_ADD.value, (byte) Ibv.Opcode.ATOMIC_CMP_AND_SWP.value), any, any)
                        .as((keyed, offset, id, op, compareAdd, swap) -> new Frame(null, SoftWire.ATOMIC, (long) id << 32,
                                offset, keyed, true, atomicOperands(op, compareAdd, swap)))),
                // A length below the header or above the frame buffer.
                Tuple.of(1, Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(15),
                        Arbitraries.integers().between(16 + FRAME + 1, Integer.MAX_VALUE)),
                        Arbitraries.oneOf(forwarded, requests.filter(tag -> tag != SoftWire.WRITE)), any, any, small)
                        .as((n, tag, h0, h1, bytes) -> new Frame(n, tag, h0, h1, false, false, bytes))),
                // A type no port sends (0 would be the ring's padding).
                Tuple.of(1, Combinators.combine(Arbitraries.oneOf(Arbitraries.of((byte) 0),
                        Arbitraries.bytes().between((byte) 8, (byte) 15),
                        Arbitraries.bytes().between((byte) 21, Byte.MAX_VALUE),
                        Arbitraries.bytes().between(Byte.MIN_VALUE, (byte) -1)), any, any, small)
                        .as((tag, h0, h1, bytes) -> new Frame(null, tag, h0, h1, false, false, bytes))),
                // A READ or an atomic with its operands cut short.
                Tuple.of(1, Combinators.combine(Arbitraries.of(SoftWire.READ, SoftWire.ATOMIC),
                        Arbitraries.longs().between(0, 512).map(offset -> offset & ~7L), anyInt,
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(16)).as((tag, offset, id, bytes) ->
                        new Frame(null, tag, (long) id << 32, offset, true, true,
                                tag == SoftWire.READ ? Arrays.copyOf(bytes, Math.min(bytes.length, 7)) : bytes))),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Raw::new)));
        return piece.list().ofMaxSize(8);
    }

    /** A datagram the UD queue pair must receive, and its bytes. */
    private record Datagram(WorkCompletion completion, byte[] payload) {
    }

    /** What a correct agent does with a stream: the model the port is held to. */
    private static final class Model {
        final long base;
        final int rkey;
        final byte[] region = new byte[EXPOSED];
        final List<Datagram> datagrams = new ArrayList<>();
        final ByteArrayOutputStream answers = new ByteArrayOutputStream();
        /** What the message of a dropped connection must hold; null if the stream holds no bad frame. */
        String refusal;
        private WcStatus writeStatus = WcStatus.SUCCESS;

        Model(long base, int rkey) {
            this.base = base;
            this.rkey = rkey;
        }

        boolean allows(int key, long address, long bytes) {
            return key == rkey && address >= base && bytes >= 0 && bytes <= base + EXPOSED - address;
        }

        void run(ByteBuffer in) {
            while (in.remaining() >= 21) {
                int length = in.order(ByteOrder.BIG_ENDIAN).getInt();
                byte tag = in.get();
                in.order(ByteOrder.nativeOrder());
                long header0 = in.getLong();
                long header1 = in.getLong();
                int payload = length - 16;
                if (payload < 0 || tag != SoftWire.WRITE && payload > FRAME) {
                    refusal = "sent a frame of " + length + " bytes (type " + tag + ")";
                    return;
                }
                if (tag < SoftWire.WRITE && !SoftVerbs.isPacket(tag) || tag > SoftWire.MCAST_IMM) {
                    refusal = "sent a frame of unknown type " + tag;
                    return;
                }
                if (tag == SoftWire.READ && payload < 8 || tag == SoftWire.ATOMIC && payload < 17) {
                    refusal = "sent a frame of type " + tag + " with " + payload + " bytes of operands";
                    return;
                }
                if (tag == SoftWire.WRITE && allows((int) header0, header1, payload)) {
                    int n = Math.min(payload, in.remaining()); // what arrived lands, even when the rest never does
                    in.get(region, (int) (header1 - base), n);
                    if (n < payload) {
                        return;
                    }
                } else {
                    if (in.remaining() < payload) {
                        return; // cut short: the peer closed mid-frame
                    }
                    if (tag == SoftWire.WRITE) {
                        in.position(in.position() + payload); // read and dropped
                        writeStatus = WcStatus.REM_ACCESS_ERR;
                    }
                }
                byte[] bytes = new byte[tag == SoftWire.WRITE ? 0 : payload];
                in.get(bytes);
                ByteBuffer operands = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
                switch (tag) {
                    case SoftWire.WRITE -> {
                        if ((header0 & LAST) != 0) {
                            answer(SoftWire.WRITE, (int) (header0 >>> 32) & 0x7FFFFFFF, writeStatus);
                            writeStatus = WcStatus.SUCCESS;
                        }
                    }
                    case SoftWire.READ -> {
                        long n = operands.getLong(0);
                        boolean allowed = allows((int) header0, header1, n);
                        answer(SoftWire.READ, (int) (header0 >>> 32), allowed ? WcStatus.SUCCESS : WcStatus.REM_ACCESS_ERR);
                        if (allowed) {
                            answers.write(region, (int) (header1 - base), (int) n);
                        }
                    }
                    case SoftWire.ATOMIC -> atomic((int) (header0 >>> 32), (int) header0, header1, operands);
                    case SoftWire.MCAST, SoftWire.MCAST_IMM -> {
                        if ((int) (header0 >>> 32) == MLID) {
                            packet(tag == SoftWire.MCAST_IMM ? SoftVerbs.UD_SEND_IMM : SoftVerbs.UD_SEND,
                                    FuzzedPorts.UD_QPN & 0xFFFFFFFFL | (long) (int) header0 << 32, header1, bytes);
                        }
                    }
                    default -> packet(tag, header0, header1, bytes);
                }
            }
        }

        private void atomic(int id, int key, long address, ByteBuffer operands) {
            if ((address & 7) != 0) {
                answer(SoftWire.ATOMIC, id, WcStatus.REM_INV_REQ_ERR);
            } else if (!allows(key, address, 8)) {
                answer(SoftWire.ATOMIC, id, WcStatus.REM_ACCESS_ERR);
            } else {
                ByteBuffer word = ByteBuffer.wrap(region).order(ByteOrder.nativeOrder());
                int at = (int) (address - base);
                long old = word.getLong(at);
                long compareAdd = operands.getLong(1);
                boolean add = operands.get(0) == Ibv.Opcode.ATOMIC_FETCH_AND_ADD.value;
                word.putLong(at, add ? old + compareAdd : old == compareAdd ? operands.getLong(9) : old);
                answer(SoftWire.ATOMIC, id, WcStatus.SUCCESS);
                answers.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(old).array());
            }
        }

        private void answer(byte kind, int id, WcStatus status) {
            answers.writeBytes(ByteBuffer.allocate(9).put(kind).putInt(id).putInt(status.ordinal()).array());
        }

        /** A packet into the port's ring: only a datagram with the Q_Key for the UD queue pair does anything. */
        private void packet(byte tag, long header0, long header1, byte[] payload) {
            if ((tag == SoftVerbs.UD_SEND || tag == SoftVerbs.UD_SEND_IMM) && (int) header0 == FuzzedPorts.UD_QPN
                    && (int) header1 == VerbsContract.QKEY) {
                boolean fits = Ibv.GRH_BYTES + payload.length <= UD_RECEIVE_BYTES;
                datagrams.add(new Datagram(new WorkCompletion(datagrams.size(), fits ? WcStatus.SUCCESS
                        : WcStatus.LOC_LEN_ERR, Ibv.WcOpcode.RECV, FuzzedPorts.UD_QPN, fits ? Ibv.GRH_BYTES + payload.length
                        : payload.length, tag == SoftVerbs.UD_SEND_IMM, (int) (header1 >>> 32), (int) (header0 >>> 32),
                        FORGER, true), payload));
            }
        }
    }

    @Property(tries = 40)
    void theAgentDoesWhatACorrectOneDoesUpToTheFirstBadFrameThenDropsTheConnectionNamingTheLid(
            @ForAll("streams") List<Piece> pieces) throws Exception {
        Path fabric = Files.createTempDirectory("verbs-wire-fuzz");
        PrintStream stderr = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try (Arena arena = Arena.ofShared();
             SoftVerbs victim = SoftVerbs.open(fabric, VICTIM, FORGER, RING, SoftFaults.NONE,
                     new SoftVerbs.Network("host", KEY, true));
             SoftVerbs peer = SoftVerbs.open(fabric, PEER, FORGER, RING, SoftFaults.NONE,
                     new SoftVerbs.Network("host", KEY, true))) {
            victim.learnPort(PEER, "host", peer.portAddress());
            peer.learnPort(VICTIM, "host", victim.portAddress());
            FuzzedPorts ports = FuzzedPorts.connect(victim, VICTIM, peer, PEER, arena, UD_RECEIVES, UD_RECEIVE_BYTES,
                    ud -> ud.attachMulticast(MulticastGroup.of(MLID)));
            Verbs.ProtectionDomain pdV = ports.pdV();
            Verbs.ProtectionDomain pdP = ports.pdP();
            Verbs.CompletionQueue cqV = ports.cqV();
            Verbs.CompletionQueue udCq = ports.udCq();
            Verbs.CompletionQueue cqP = ports.cqP();
            MemoryRegion udBuffers = ports.udBuffers();
            MemoryRegion exposed = pdV.register(arena.allocate(EXPOSED, 64), Ibv.ACCESS_LOCAL_WRITE
                    | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC);
            MemoryRegion bufV = pdV.register(arena.allocate(128, 64), Ibv.ACCESS_LOCAL_WRITE);
            MemoryRegion bufP = pdP.register(arena.allocate(128, 64), Ibv.ACCESS_LOCAL_WRITE);

            ByteBuffer stream = ByteBuffer.allocate(8 * (2 * FRAME + 64));
            pieces.forEach(p -> p.writeTo(stream, exposed.address(), exposed.rkey()));
            stream.flip();
            Model model = new Model(exposed.address(), exposed.rkey());
            model.run(stream.duplicate());

            String published = victim.portAddress().get(SoftVerbs.WIRE_KEY);
            byte[] answers;
            try (SocketChannel forger = Sockets.connect(Sockets.candidates(published), 5000, MAGIC, FORGER, KEY)) {
                answers = exchange(forger, stream);
            }
            // Every forwarded packet is in the ring by now: the agent forwards a frame before it reads on.
            List<WorkCompletion> datagrams = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (datagrams.size() < model.datagrams.size()) {
                FuzzedPorts.pollInto(udCq, datagrams, errors);
                assertThat(System.nanoTime()).as("datagrams after 5 s: %s", datagrams).isLessThan(deadline);
            }
            for (int i = 0; i < 5; i++) {
                FuzzedPorts.pollInto(udCq, datagrams, errors);
            }
            assertThat(errors).as("the port refuses nothing the agent forwarded").isEmpty();
            assertThat(datagrams).extracting(WorkCompletion::toString)
                    .containsExactlyElementsOf(model.datagrams.stream().map(d -> d.completion().toString()).toList());
            for (int i = 0; i < datagrams.size(); i++) {
                if (datagrams.get(i).ok()) {
                    byte[] payload = model.datagrams.get(i).payload();
                    assertThat(FuzzedPorts.bytes(udBuffers).asSlice((long) i * UD_RECEIVE_BYTES + Ibv.GRH_BYTES, payload.length)
                            .toArray(ValueLayout.JAVA_BYTE)).as("datagram %d's bytes", i).isEqualTo(payload);
                }
            }
            assertThat(FuzzedPorts.bytes(exposed).toArray(ValueLayout.JAVA_BYTE)).as("the exposed region").isEqualTo(model.region);
            byte[] expectedAnswers = model.answers.toByteArray();
            if (model.refusal == null) {
                assertThat(answers).as("the answers").isEqualTo(expectedAnswers);
            } else { // the connection was dropped, perhaps reset, with what the client wrote after the bad frame unread
                assertThat(answers).as("the answers").isEqualTo(Arrays.copyOf(expectedAnswers,
                        Math.min(answers.length, expectedAnswers.length)));
            }
            String message = said.toString(StandardCharsets.UTF_8);
            if (model.refusal != null) {
                assertThat(message).contains("soft device port " + VICTIM + ": LID " + FORGER + " " + model.refusal)
                        .contains("closing its connection");
            } else {
                assertThat(message).as("nothing to say about a stream that is only cut short").isEmpty();
            }

            // The forger's ring goes on: a new connection of LID 3 gets a datagram through.
            int marker = datagrams.size();
            ByteBuffer one = ByteBuffer.allocate(64);
            new Frame(null, SoftVerbs.UD_SEND, FuzzedPorts.UD_QPN, VerbsContract.QKEY, false, false, longs(0x5EED)).writeTo(one, 0, 0);
            one.flip();
            try (SocketChannel again = Sockets.connect(Sockets.candidates(published), 5000, MAGIC, FORGER, KEY)) {
                assertThat(exchange(again, one)).isEmpty();
            }
            while (datagrams.size() <= marker) {
                FuzzedPorts.pollInto(udCq, datagrams, errors);
                assertThat(System.nanoTime()).as("the datagram after the fuzzed connection").isLessThan(deadline);
            }
            assertThat(errors).isEmpty();
            assertThat(FuzzedPorts.bytes(udBuffers).get(ValueLayout.JAVA_LONG, (long) marker * UD_RECEIVE_BYTES + Ibv.GRH_BYTES))
                    .isEqualTo(0x5EED);

            // And the other port's connection, over its own socket, both ways.
            ports.postCrossTraffic(bufV, bufP);
            List<WorkCompletion> onVictim = new ArrayList<>();
            List<WorkCompletion> onPeer = new ArrayList<>();
            while (onVictim.size() < 2 || onPeer.size() < 2) {
                FuzzedPorts.pollInto(cqV, onVictim, errors);
                FuzzedPorts.pollInto(cqP, onPeer, errors);
                assertThat(System.nanoTime()).as("RC traffic: victim %s, peer %s", onVictim, onPeer)
                        .isLessThan(deadline);
            }
            assertThat(errors).isEmpty();
            FuzzedPorts.assertCrossTraffic(bufV, bufP, onVictim, onPeer);
        } finally {
            System.setErr(stderr);
            try (var files = Files.list(fabric)) {
                files.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(fabric);
        }
    }

    /** Writes {@code stream} and closes the client's sending side; what the agent answers before it closes. */
    private static byte[] exchange(SocketChannel channel, ByteBuffer stream) throws Exception {
        return FuzzSockets.sendAndAwaitClose(channel, stream, Duration.ofNanos(TIMEOUT_NANOS), "the agent");
    }
}
