package org.jmca.btl.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jmca.btl.base.Sockets;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmPriority;

/**
 * Fuzzes the emulated GM NIC's TCP wire frames ({@code byte kind, int port, long sendId, long
 * word, payload}) as a remote node sends them: well-formed packets and ones with one field wrong
 * ({@link GmPackets}), frames shorter than the header, frames for a port that is not open, and
 * connections from node ids outside the fabric. The port must place every well-formed message
 * sent before the first bad frame; the wire must drop the connection at that frame, saying which
 * node and frame, and the port must keep working (nothing escapes into it).
 */
class GmWireFuzzTest {
    private static final long MAGIC = 0x4a4d43412d474d57L;
    private static final byte[] KEY = "gm-fuzz".getBytes(StandardCharsets.UTF_8);
    private static final int PORT = 3;
    private static final EmulatedGmPort.Settings SETTINGS = new EmulatedGmPort.Settings(1 << 16, 4, 8, 0, 0);
    private static final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private static PrintStream stderr;
    private static Path fabric;

    @BeforeContainer
    static void start() throws IOException {
        fabric = Files.createTempDirectory("gm-wire-fuzz");
        fabric.toFile().deleteOnExit();
        stderr = System.err;
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
    }

    @AfterContainer
    static void stop() {
        System.setErr(stderr);
    }

    /** A frame as node 1 sends it: a packet, for this port or another, or cut short. */
    record Frame(GmPackets.Packet packet, int port, int cutTo) {
        boolean broken() {
            return packet.broken() != null || cutTo < 21;
        }

        ByteBuffer bytes() {
            ByteBuffer frame = ByteBuffer.allocate(21 + packet.payload().length).order(ByteOrder.nativeOrder());
            frame.put(packet.kind()).putInt(port).putLong(packet.sendId()).putLong(packet.word()).put(packet.payload());
            return frame.flip().limit(Math.min(cutTo, frame.limit()));
        }
    }

    @Provide
    Arbitrary<List<Frame>> frames() {
        return net.jqwik.api.Combinators.combine(GmPackets.packets(true),
                        Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, Arbitraries.just(PORT)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.integers())),
                        Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, Arbitraries.just(Integer.MAX_VALUE)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 20))))
                .as(Frame::new).list().ofMaxSize(10);
    }

    @Property(tries = 40)
    void wellFormedFramesArePlacedAndTheFirstBadOneDropsTheConnectionNotThePort(
            @ForAll("frames") List<Frame> frames, @ForAll("nodes") int node) throws IOException {
        int errorsBefore = errors.size();
        try (Arena arena = Arena.ofConfined(); GmWire wire = new GmWire(2, 2, KEY);
             EmulatedGmPort port = EmulatedGmPort.open(fabric, 2, 2, PORT, SETTINGS, wire)) {
            MemorySegment buffers = arena.allocate(8L << GmPackets.SIZE, 64);
            port.register(buffers);
            for (int i = 0; i < 8; i++) {
                port.provideReceiveBuffer(buffers.asSlice((long) i << GmPackets.SIZE, 1L << GmPackets.SIZE),
                        GmPackets.SIZE, GmPriority.LOW, i);
            }
            String published = wire.address();
            InetSocketAddress at = new InetSocketAddress("127.0.0.1",
                    Integer.parseInt(published.substring(published.lastIndexOf(':') + 1)));
            try (SocketChannel peer = Sockets.connect(List.of(at), 5000, MAGIC, node, KEY)) {
                try {
                    for (Frame frame : frames) {
                        ByteBuffer bytes = frame.bytes();
                        ByteBuffer length = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, bytes.limit());
                        Sockets.writeFully(peer, length);
                        Sockets.writeFully(peer, bytes);
                    }
                    peer.shutdownOutput();
                } catch (IOException e) {
                    // the wire dropped the connection at a bad frame
                }
                awaitClosed(peer);
            }
            int firstBroken = 0;
            while (firstBroken < frames.size() && !frames.get(firstBroken).broken()) {
                firstBroken++;
            }
            List<byte[]> expected = node != 1 ? List.of() : frames.subList(0, firstBroken).stream()
                    .filter(f -> f.port() == PORT && f.packet().isMessage()).map(f -> f.packet().delivered()).toList();
            List<byte[]> placed = new ArrayList<>();
            for (int turn = 0; turn < 3 * frames.size() + 3; turn++) {
                if (port.receive() instanceof GmEvent.Received received) {
                    placed.add(received.buffer().asSlice(0, received.length()).toArray(ValueLayout.JAVA_BYTE));
                    port.provideReceiveBuffer(received.buffer(), received.size(), received.priority(), received.tag());
                }
            }
            assertThat(placed).usingElementComparator(java.util.Arrays::compare).containsExactlyElementsOf(expected);
            String said = errors.toString(StandardCharsets.UTF_8).substring(errorsBefore);
            if (node != 1) {
                assertThat(said).contains("refused a connection from peer " + node);
            } else if (firstBroken < frames.size()) {
                assertThat(said).contains("peer 1 sent a frame of " + frames.get(firstBroken).bytes().limit() + " bytes");
            }
        }
    }

    @Provide
    Arbitrary<Integer> nodes() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, Arbitraries.just(1)),
                net.jqwik.api.Tuple.of(1, Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(0),
                        Arbitraries.integers().greaterOrEqual(3))));
    }

    private static void awaitClosed(SocketChannel peer) throws IOException {
        peer.configureBlocking(false);
        long deadline = System.nanoTime() + 5_000_000_000L;
        ByteBuffer sink = ByteBuffer.allocate(256);
        while (true) {
            try {
                if (peer.read(sink.clear()) < 0) {
                    return;
                }
            } catch (IOException e) {
                return;
            }
            assertThat(System.nanoTime()).as("the wire read or dropped the connection in time").isLessThan(deadline);
            LockSupport.parkNanos(1_000_000);
        }
    }
}
