package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzes {@link SocketWire}'s framing ({@code int length}, then the bytes) and its connection
 * introduction ({@link Sockets#introduction}): streams made of valid frames, lengths that are
 * negative or larger than the wire's frames, frames the receiver refuses, truncated frames and
 * random bytes, from peers with ids inside and outside the job. What the receiver gets must be
 * exactly the frames a correct reader finds before the first bad one; a bad length or a refused
 * frame closes the connection and reports that peer down, with a message naming it and the length;
 * nothing hangs, and a bystander peer's frames keep arriving.
 */
class SocketWireFuzzTest {
    private static final long MAGIC = 0x4a4d43412d46555aL;
    private static final byte[] KEY = "fuzz-key".getBytes(StandardCharsets.UTF_8);
    private static final int LAST_PEER = 1_000_000;
    private static final int MAX_FRAME = 4096;
    /** A frame starting with this byte the receiver refuses, as a decoder refuses a malformed frame. */
    private static final byte REFUSED = 0x7F;
    private static final long TIMEOUT_NANOS = 5_000_000_000L;
    private static final int BYSTANDER = LAST_PEER;

    private static SocketWire wire;
    private static InetSocketAddress address;
    private static SocketChannel bystander;
    private static final Queue<Object[]> frames = new ConcurrentLinkedQueue<>();
    private static final Queue<Integer> down = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger nextPeer = new AtomicInteger(1);
    private static final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private static PrintStream stderr;

    @BeforeContainer
    static void start() throws IOException {
        stderr = System.err;
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
        wire = new SocketWire("fuzz wire", 0, MAGIC, KEY, 1, LAST_PEER, MAX_FRAME, (from, frame) -> {
            byte[] bytes = new byte[frame.remaining()];
            frame.get(bytes);
            if (bytes.length > 0 && bytes[0] == REFUSED) {
                throw new IllegalStateException("the test's receiver refuses frames starting with " + REFUSED);
            }
            frames.add(new Object[] {from, bytes});
        }, down::add);
        String published = wire.address();
        address = new InetSocketAddress("127.0.0.1", Integer.parseInt(published.substring(published.lastIndexOf(':') + 1)));
        bystander = Sockets.connect(List.of(address), 5000, MAGIC, BYSTANDER, KEY);
    }

    @AfterContainer
    static void stop() throws IOException {
        bystander.close();
        wire.close();
        System.setErr(stderr);
    }

    /** One piece of what a peer writes on its connection. */
    private sealed interface Piece {
        void writeTo(ByteBuffer out);
    }

    private record Frame(byte[] bytes) implements Piece {
        public void writeTo(ByteBuffer out) {
            out.putInt(bytes.length).put(bytes);
        }
    }

    private record Length(int length) implements Piece {
        public void writeTo(ByteBuffer out) {
            out.putInt(length);
        }
    }

    private record Raw(byte[] bytes) implements Piece {
        public void writeTo(ByteBuffer out) {
            out.put(bytes);
        }
    }

    @Provide
    Arbitrary<List<Piece>> streams() {
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<Piece> piece = Arbitraries.frequencyOf(
                Tuple.of(6, small.map(Frame::new)),
                Tuple.of(1, small.map(bytes -> {
                    byte[] refused = Arrays.copyOf(bytes, bytes.length + 1);
                    refused[0] = REFUSED;
                    return new Frame(refused);
                })),
                Tuple.of(1, Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(-1),
                        Arbitraries.integers().between(MAX_FRAME + 1, Integer.MAX_VALUE),
                        Arbitraries.integers().between(0, MAX_FRAME + 8)).map(Length::new)),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Raw::new)));
        return piece.list().ofMaxSize(8);
    }

    /** Ids outside the job's 1..LAST_PEER, which a connection may present with the job's key. */
    @Provide
    Arbitrary<Integer> outsiders() {
        return Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(0), Arbitraries.integers().greaterOrEqual(LAST_PEER + 1));
    }

    /** What a correct reader makes of a stream: the frames it hands over, and whether the peer is reported down. */
    private record Outcome(List<byte[]> delivered, boolean peerDown, int badLength) {
        static Outcome of(ByteBuffer stream) {
            List<byte[]> delivered = new ArrayList<>();
            while (stream.remaining() >= 4) {
                int n = stream.getInt();
                if (n < 0 || n > MAX_FRAME) {
                    return new Outcome(delivered, true, n);
                }
                if (stream.remaining() < n) {
                    break; // truncated: the peer closed mid-frame, which its own side reports
                }
                byte[] frame = new byte[n];
                stream.get(frame);
                if (n > 0 && frame[0] == REFUSED) {
                    return new Outcome(delivered, true, n);
                }
                delivered.add(frame);
            }
            return new Outcome(delivered, false, 0);
        }
    }

    @Property(tries = 120)
    void aPeerGetsExactlyItsFramesUpToTheFirstBadOneAndIsReportedDownForIt(
            @ForAll("streams") List<Piece> pieces, @ForAll("outsiders") int outsider, @ForAll boolean fromOutside)
            throws Exception {
        // A fresh id for each run: a peer is reported down once.
        int id = fromOutside ? outsider : nextPeer.getAndIncrement();
        ByteBuffer stream = ByteBuffer.allocate(16 * 1024).order(ByteOrder.nativeOrder());
        pieces.forEach(piece -> piece.writeTo(stream));
        stream.flip();
        boolean inJob = id >= 1 && id <= LAST_PEER;
        Outcome expected = inJob ? Outcome.of(stream.duplicate().order(ByteOrder.nativeOrder()))
                : new Outcome(List.of(), false, 0);
        int errorsBefore = errors.size();

        try (SocketChannel peer = Sockets.connect(List.of(address), 5000, MAGIC, id, KEY)) {
            try {
                Sockets.writeFully(peer, stream);
                peer.shutdownOutput();
            } catch (IOException e) {
                // the wire closed the connection at a bad frame, before everything was written
            }
            awaitClosedByWire(peer);
        }

        List<byte[]> got = new ArrayList<>();
        frames.removeIf(frame -> (int) frame[0] == id && got.add((byte[]) frame[1]));
        assertThat(got).as("frames handed over").usingElementComparator(Arrays::compare)
                .containsExactlyElementsOf(expected.delivered());
        assertThat(down.remove(id)).as("peer %d reported down", id).isEqualTo(expected.peerDown());
        String said = errors.toString(StandardCharsets.UTF_8).substring(errorsBefore);
        if (expected.peerDown()) {
            assertThat(said).contains("peer " + id + " sent a frame of " + expected.badLength() + " bytes");
        } else if (!inJob) {
            assertThat(said).contains("refused a connection from peer " + id);
        }
        assertBystanderStillHeard();
    }

    /** Waits, a bounded time, for the wire to close its end: it read the whole stream, or stopped at a bad frame. */
    private static void awaitClosedByWire(SocketChannel peer) throws IOException {
        peer.configureBlocking(false);
        ByteBuffer sink = ByteBuffer.allocate(64);
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (true) {
            int read;
            try {
                read = peer.read(sink.clear());
            } catch (IOException e) {
                return; // reset: closed by the wire too
            }
            assertThat(read).as("the wire never writes on a connection of frames").isLessThanOrEqualTo(0);
            if (read < 0) {
                return;
            }
            assertThat(System.nanoTime()).as("the wire closed the connection in time").isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private static void assertBystanderStillHeard() throws IOException {
        byte[] hello = "still here".getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(4 + hello.length).order(ByteOrder.nativeOrder());
        frame.putInt(hello.length).put(hello).flip();
        Sockets.writeFully(bystander, frame);
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!frames.removeIf(f -> (int) f[0] == BYSTANDER && Arrays.equals((byte[]) f[1], hello))) {
            assertThat(System.nanoTime()).as("the bystander's frame arrived").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(down).as("peers reported down and not expected").doesNotContain(BYSTANDER);
    }
}
