package org.jmca.btl.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.jmca.btl.base.SharedRing;
import org.jmca.btl.base.Sockets;
import org.jmca.common.lapi.LapiException;
import org.jmca.common.lapi.LapiMode;
import org.jmca.mca.fuzz.FuzzSockets;

/**
 * Fuzzes the LAPI switch's frames on the TCP wire ({@code int length} in native order, then
 * {@code byte kind}, the 40-byte packet header and the payload), as a raw client that introduces
 * itself with the job's key as task 2 of three and writes to task 0: puts into exposed memory,
 * well-formed packets task 0 refuses or ignores, a packet with an operation out of range, and
 * frames with one field wrong (a length field negative or above a ring record, a frame shorter than
 * the header, a kind no task sends), cut-short streams and random bytes. What the wire hands task 0
 * must be exactly the frames a correct reader finds before the first bad one (counted by the
 * dispatcher, and placed in memory as a model of the puts says); a bad frame must drop the
 * connection and report task 2 down with a message naming it, without spinning or hanging; task 0
 * fails only for a malformed packet, naming task 2; and afterwards the ring from task 2 still
 * takes packets, and task 1 and task 0 still put into each other's memory.
 */
class LapiWireFuzzTest {
    private static final long MAGIC = 0x4a4d43412d4c4150L; // LapiWire's
    private static final int VICTIM = 0;
    private static final int HONEST = 1;
    private static final int FORGER = 2;
    private static final int RING = 64 * 1024;
    private static final int MAX_FRAME = 1 + SharedRing.maxRecord(RING);
    private static final int EXPOSED = 4096;
    private static final int SLOTS = 64;
    private static final long TIMEOUT_NANOS = 5_000_000_000L;

    /** What a frame the test builds is, for the dispatcher. */
    enum Kind {
        /** A put of 8 bytes into a slot of the exposed memory. */
        MARKER,
        /** A packet task 0 refuses (a put outside exposed memory) or ignores (an answer to nothing). */
        HARMLESS,
        /** A packet no task sends: task 0 fails, naming task 2. */
        MALFORMED,
        /** A frame the wire refuses, or bytes: whatever a correct reader makes of them. */
        OTHER
    }

    /** One piece of what the client writes; the exposed memory's address is filled in when written. */
    private sealed interface Piece {
        void writeTo(ByteBuffer out, long base);

        Kind kind();
    }

    /**
     * A frame; {@code length} null for the right one. With {@code relative}, field a is an offset
     * from the exposed memory's start.
     */
    private record Frame(Integer length, byte type, long id, long a, long b, long c, long flags, boolean relative,
                         byte[] payload, Kind kind) implements Piece {
        public void writeTo(ByteBuffer out, long base) {
            out.order(ByteOrder.nativeOrder()).putInt(length != null ? length : 1 + Packet.HEADER + payload.length)
                    .put(type).putLong(id).putLong(relative ? base + a : a).putLong(b).putLong(c).putLong(flags)
                    .put(payload);
        }

        @Override
        public String toString() {
            return "Frame[" + kind + ", " + (length == null ? "" : "length " + length + ", ") + Packet.kindName(type)
                    + ", id " + id + ", a " + (relative ? "base + " : "") + a + ", b " + b + ", c " + c + ", flags 0x"
                    + Long.toHexString(flags) + ", " + payload.length + " bytes]";
        }
    }

    private record Raw(byte[] bytes) implements Piece {
        public void writeTo(ByteBuffer out, long base) {
            out.put(bytes);
        }

        public Kind kind() {
            return Kind.OTHER;
        }

        @Override
        public String toString() {
            return "Raw" + Arrays.toString(bytes);
        }
    }

    @Provide
    Arbitrary<List<Piece>> streams() {
        Arbitrary<Long> any = Arbitraries.longs();
        Arbitrary<byte[]> payloads = Arbitraries.bytes().array(byte[].class).ofMaxSize(100);
        Arbitrary<Piece> piece = Arbitraries.frequencyOf(
                Tuple.of(3, Combinators.combine(any, Arbitraries.integers().between(0, SLOTS - 1), any).as((id, slot, value) ->
                        new Frame(null, Packet.PUT, id, 8L * slot, 0, 0, Packet.LAST, true,
                                MemorySegment.ofArray(new long[] {value}).toArray(ValueLayout.JAVA_BYTE), Kind.MARKER))),
                Tuple.of(2, Combinators.combine(Arbitraries.of(Packet.ACK, Packet.GET_REPLY, Packet.RMW_REPLY), any, any,
                        any, payloads).as((type, id, a, c, bytes) ->
                        new Frame(null, type, id | 1L << 62, a, 0, c, Packet.LAST, false, bytes, Kind.HARMLESS))),
                Tuple.of(1, Combinators.combine(any, Arbitraries.longs().between(EXPOSED, 1L << 40), payloads)
                        .as((id, offset, bytes) -> new Frame(null, Packet.PUT, id, offset, 0, 0, Packet.LAST, true, bytes,
                                Kind.HARMLESS))),
                Tuple.of(1, Combinators.combine(any, Arbitraries.integers().between(4, 255)).as((id, op) ->
                        new Frame(null, Packet.RMW, id, 0, 0, 0, Packet.rmwFlags(op), true, new byte[0], Kind.MALFORMED))),
                // The length field negative, above the largest frame, or too short for the header.
                Tuple.of(1, Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(-1),
                        Arbitraries.integers().between(MAX_FRAME + 1, Integer.MAX_VALUE),
                        Arbitraries.integers().between(0, Packet.HEADER)), Arbitraries.bytes().between((byte) 1, (byte) 8),
                        payloads).as((n, type, bytes) -> new Frame(n, type, 0, 0, 0, 0, Packet.LAST, false, bytes,
                        Kind.OTHER))),
                // A kind no task sends (0 would be the ring's padding).
                Tuple.of(1, Combinators.combine(Arbitraries.oneOf(Arbitraries.of((byte) 0),
                        Arbitraries.bytes().between((byte) 9, Byte.MAX_VALUE),
                        Arbitraries.bytes().between(Byte.MIN_VALUE, (byte) -1)), any, payloads)
                        .as((type, id, bytes) -> new Frame(null, type, id, 0, 0, 0, Packet.LAST, false, bytes, Kind.OTHER))),
                // A length field that says more than follows: the frame swallows what comes after it.
                Tuple.of(1, Combinators.combine(Arbitraries.integers().between(1 + Packet.HEADER, 400), payloads)
                        .as((n, bytes) -> new Frame(n, Packet.ACK, 1L << 62, 0, 0, 0, Packet.LAST, false, bytes,
                                Kind.OTHER))),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Raw::new)));
        return piece.list().ofMaxSize(8);
    }

    /** What a correct wire and dispatcher make of a stream: the frames handed over, memory, the refusal. */
    private static final class Model {
        final long base;
        final byte[] region = new byte[EXPOSED];
        int delivered;
        boolean malformed;
        boolean unknown;
        /** What the message of a dropped connection must hold; null if the stream holds no bad frame. */
        String refusal;
        private boolean putRefused;

        Model(long base) {
            this.base = base;
        }

        /** {@code kinds}: the kind of the piece that starts at each offset of the stream. */
        void run(ByteBuffer in, Map<Integer, Kind> kinds) {
            in.order(ByteOrder.nativeOrder());
            while (in.remaining() >= 4) {
                int start = in.position();
                int n = in.getInt();
                if (n < 0 || n > MAX_FRAME) {
                    refusal = "sent a frame of " + n + " bytes (its length field), not 0.." + MAX_FRAME;
                    return;
                }
                if (in.remaining() < n) {
                    return; // cut short: the client closed mid-frame
                }
                ByteBuffer frame = in.slice(in.position(), n).order(ByteOrder.nativeOrder());
                in.position(in.position() + n);
                if (n < 1 + Packet.HEADER) {
                    refusal = "sent a frame of " + n + " bytes that was refused: a frame of " + n + " bytes, shorter";
                    return;
                }
                byte type = frame.get(0);
                if (type < Packet.PUT || type > Packet.RMW_REPLY) {
                    refusal = "sent a frame of " + n + " bytes that was refused: a packet of unknown kind " + type;
                    return;
                }
                delivered++;
                Kind kind = kinds.get(start);
                boolean asBuilt = kind != null && kind != Kind.OTHER;
                malformed |= asBuilt && kind == Kind.MALFORMED;
                unknown |= !asBuilt;
                if (type == Packet.PUT) {
                    put(frame.getLong(1 + Packet.A), (frame.getLong(1 + Packet.FLAGS) & Packet.LAST) != 0,
                            frame.slice(1 + Packet.HEADER, n - 1 - Packet.HEADER));
                } else if (type == Packet.RMW) {
                    rmw(frame.getLong(1 + Packet.A), frame.getLong(1 + Packet.B), frame.getLong(1 + Packet.C),
                            Packet.rmwOp(frame.getLong(1 + Packet.FLAGS)));
                }
            }
        }

        /** A put: its data lands if it is all inside the exposed memory and no packet of its message was refused. */
        private void put(long address, boolean last, ByteBuffer data) {
            int length = data.remaining();
            boolean inside = address >= base && address - base <= EXPOSED && length <= EXPOSED - (address - base);
            if (!inside) {
                putRefused = true;
            } else if (!putRefused) {
                data.get(region, (int) (address - base), length);
            }
            if (last) {
                putRefused = false;
            }
        }

        private void rmw(long address, long operand, long comparand, int op) {
            if (op >= 4 || (address & 7) != 0 || address < base || address - base > EXPOSED - 8) {
                return;
            }
            ByteBuffer words = ByteBuffer.wrap(region).order(ByteOrder.nativeOrder());
            int at = (int) (address - base);
            long old = words.getLong(at);
            words.putLong(at, switch (op) {
                case 0 -> operand;
                case 1 -> old == comparand ? operand : old;
                case 2 -> old + operand;
                default -> old | operand;
            });
        }
    }

    private static LapiSettings settings() {
        return new LapiSettings(LapiMode.POLLING, 4096, RING, 5, 20, LapiSettings.Wire.SOCKET);
    }

    @Property(tries = 30)
    void theWireHandsOverExactlyTheFramesBeforeTheFirstBadOneThenDropsTheTaskNamingIt(
            @ForAll("streams") List<Piece> pieces) throws Exception {
        PrintStream stderr = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try (LapiTasks job = LapiTasks.connected(3, settings()); Arena arena = Arena.ofShared()) {
            LapiTask victim = job.get(VICTIM);
            LapiTask honest = job.get(HONEST);
            MemorySegment exposed = arena.allocate(EXPOSED, 64);
            MemorySegment honestExposed = arena.allocate(64, 64);
            victim.expose(exposed);
            honest.expose(honestExposed);

            ByteBuffer stream = ByteBuffer.allocate(16 * 1024);
            Map<Integer, Kind> kinds = new HashMap<>();
            for (Piece p : pieces) {
                kinds.put(stream.position(), p.kind());
                p.writeTo(stream, exposed.address());
            }
            stream.flip();
            Model model = new Model(exposed.address());
            model.run(stream.duplicate(), kinds);

            String published = victim.address().get(LapiTask.WIRE_KEY);
            try (SocketChannel forger = Sockets.connect(Sockets.candidates(published), 5000, MAGIC, FORGER,
                    LapiTasks.KEY)) {
                exchange(forger, stream);
            }
            // What the wire handed over is in the ring now: the agent places a frame before it reads on.
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (packetsIn(victim) < model.delivered) {
                probe(victim);
                assertThat(System.nanoTime()).as("packets in after 5 s").isLessThan(deadline);
            }
            for (int i = 0; i < 3; i++) {
                probe(victim);
            }
            if (victim.failed()) {
                Thread.sleep(2 * settings().tickMillis()); // its calls no longer dispatch: its tick does
            }
            assertThat(packetsIn(victim)).as("packets handed over").isEqualTo(model.delivered);
            assertThat(exposed.toArray(ValueLayout.JAVA_BYTE)).as("the exposed memory").isEqualTo(model.region);

            String message = said.toString(StandardCharsets.UTF_8);
            if (model.refusal != null) {
                assertThat(message).contains("btl/lapi task " + VICTIM + ": peer " + FORGER + " " + model.refusal)
                        .contains("peer " + FORGER + " is down");
            } else {
                assertThat(message).as("nothing to say of a stream that is only cut short").isEmpty();
            }
            if (!model.unknown) {
                assertThat(victim.failed()).as("task 0 failed").isEqualTo(model.malformed);
            }
            if (victim.failed()) {
                try {
                    victim.probe();
                    throw new AssertionError("a failed task's calls throw");
                } catch (LapiException e) {
                    assertThat(e).hasMessageContaining("from task " + FORGER).hasMessageNotContaining("Exception");
                }
            }

            // The ring from task 2 goes on: a put on a new connection lands.
            ByteBuffer one = ByteBuffer.allocate(64);
            new Frame(null, Packet.PUT, 7, EXPOSED - 8, 0, 0, Packet.LAST, true,
                    MemorySegment.ofArray(new long[] {0x5EED}).toArray(ValueLayout.JAVA_BYTE), Kind.MARKER)
                    .writeTo(one, exposed.address());
            one.flip();
            try (SocketChannel again = Sockets.connect(Sockets.candidates(published), 5000, MAGIC, FORGER,
                    LapiTasks.KEY)) {
                exchange(again, one);
            }
            awaitValue(exposed, EXPOSED - 8, 0x5EED, victim, honest, deadline);

            // And task 1 and task 0 still put into each other's memory over the wire.
            MemorySegment value = arena.allocate(8, 8);
            value.set(ValueLayout.JAVA_LONG, 0, 0x1111);
            honest.put(VICTIM, exposed.address() + EXPOSED - 16, value, 0, null, null);
            awaitValue(exposed, EXPOSED - 16, 0x1111, victim, honest, deadline);
            if (!victim.failed()) {
                MemorySegment other = arena.allocate(8, 8);
                other.set(ValueLayout.JAVA_LONG, 0, 0x2222);
                victim.put(HONEST, honestExposed.address(), other, 0, null, null);
                awaitValue(honestExposed, 0, 0x2222, victim, honest, deadline);
            }
            assertThat(honest.failed()).isFalse();
        } finally {
            System.setErr(stderr);
        }
    }

    private static long packetsIn(LapiTask task) {
        return task.performanceVariables().stream().filter(v -> v.name().equals("btl_lapi_packets_in")).findFirst()
                .orElseThrow().reader().getAsLong();
    }

    /** A visit to the dispatcher; a failed task's calls throw (its tick goes on dispatching). */
    private static void probe(LapiTask task) {
        try {
            task.probe();
        } catch (LapiException e) {
            assertThat(task.failed()).as("only a failed task's probe throws: %s", e.getMessage()).isTrue();
        }
    }

    private static void awaitValue(MemorySegment memory, long offset, long value, LapiTask a, LapiTask b,
                                   long deadline) {
        while (memory.get(ValueLayout.JAVA_LONG, offset) != value) {
            probe(a);
            probe(b);
            assertThat(System.nanoTime()).as("0x%x at %d", value, offset).isLessThan(deadline);
        }
    }

    /** Writes {@code stream} and closes the client's side, then waits (bounded) for the wire to close its own. */
    private static void exchange(SocketChannel channel, ByteBuffer stream) throws Exception {
        assertThat(FuzzSockets.sendAndAwaitClose(channel, stream, Duration.ofNanos(TIMEOUT_NANOS), "the wire"))
                .as("the wire never writes on a connection of frames").isEmpty();
    }
}
