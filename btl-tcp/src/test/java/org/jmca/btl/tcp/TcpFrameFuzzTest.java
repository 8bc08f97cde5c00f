package org.jmca.btl.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;

/**
 * Fuzzes btl/tcp's frames after a good handshake: a peer (here a raw socket posing as rank 2)
 * sends frames whose length field is right, zero, negative, beyond the largest frame or cut
 * short, with any tag and body. Rank 0 hands the good frames over in order, ends the connection
 * at the first bad one with a failure naming rank 2, throws nothing else, and still talks to
 * rank 1 afterwards.
 */
class TcpFrameFuzzTest {
    private static final int MAX_FRAME = 1 + (int) TcpBtlContractTest.settings().maxSendSize();

    record Frame(int length, byte tag, int bodyBytes) {
        boolean good() {
            return length >= 1 && length <= MAX_FRAME && bodyBytes == length - 1;
        }
    }

    @Provide
    Arbitrary<List<Frame>> frames() {
        Arbitrary<Frame> good = Combinators.combine(Arbitraries.integers().between(1, 200),
                Arbitraries.bytes().between((byte) 1, Byte.MAX_VALUE)).as((n, tag) -> new Frame(n + 1, tag, n));
        Arbitrary<Frame> bad = Combinators.combine(Arbitraries.of(0, -1, Integer.MIN_VALUE, MAX_FRAME + 1,
                Integer.MAX_VALUE), Arbitraries.bytes(), Arbitraries.integers().between(0, 64)).as(Frame::new);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(5, good), net.jqwik.api.Tuple.of(1, bad))
                .list().ofMinSize(1).ofMaxSize(8);
    }

    @Property(tries = 40)
    void goodFramesArriveInOrderAndTheFirstBadOneFailsOnlyItsSender(@ForAll("frames") List<Frame> frames)
            throws IOException {
        List<TcpBtlModule> modules = new ArrayList<>();
        List<String> log = new ArrayList<>();
        int[] fromTwo = new int[1];
        int[] fromOne = new int[1];
        try {
            for (int r = 0; r < 3; r++) { // rank 2's module only publishes an address: a raw socket poses as it
                modules.add(new TcpBtlModule(r, "localhost", TcpBtlContractTest.KEY, TcpBtlContractTest.loopback(),
                        TcpBtlContractTest.settings(), log::add));
            }
            List<Peer> peers = List.of(new Peer(0, "localhost", modules.get(0).localAddress()),
                    new Peer(1, "localhost", modules.get(1).localAddress()),
                    new Peer(2, "localhost", modules.get(2).localAddress()));
            List<BtlEndpoint> ofZero = modules.get(0).addPeers(peers);
            List<BtlEndpoint> ofOne = modules.get(1).addPeers(peers);
            modules.get(0).setReceiver((from, tag, memory, offset, length) -> {
                if (from.rank() == 2) {
                    fromTwo[0]++;
                } else {
                    fromOne[0]++;
                }
            });
            modules.get(1).setReceiver((from, tag, memory, offset, length) -> { });
            InetSocketAddress address = modules.get(0).listening().getFirst();
            PeerFailureException failure = null;
            try (Socket rankTwo = new Socket(address.getAddress(), address.getPort())) {
                OutputStream out = rankTwo.getOutputStream();
                out.write(TcpWire.handshake(TcpWire.keyDigest(TcpBtlContractTest.KEY), 2).array());
                Random random = new Random(frames.hashCode());
                for (Frame frame : frames) {
                    byte[] body = new byte[frame.bodyBytes()];
                    random.nextBytes(body);
                    out.write(ByteBuffer.allocate(5).putInt(frame.length()).put(frame.tag()).array());
                    out.write(body);
                }
                out.flush();
                DataInputStream in = new DataInputStream(rankTwo.getInputStream());
                long deadline = System.nanoTime() + 10_000_000_000L;
                int good = (int) frames.stream().takeWhile(Frame::good).count();
                boolean anyBad = good < frames.size();
                while (fromTwo[0] < good || anyBad && failure == null) {
                    try {
                        modules.get(0).progress();
                    } catch (PeerFailureException e) {
                        failure = e;
                    }
                    assertThat(System.nanoTime()).as("%d of %d good frames, failure %s", fromTwo[0], good, failure)
                            .isLessThan(deadline);
                }
                assertThat(in.readByte()).isEqualTo(TcpWire.ACCEPTED);
                assertThat(fromTwo[0]).as("good frames handed over").isEqualTo(good);
                if (anyBad) {
                    assertThat(failure.rank()).isEqualTo(2);
                    assertThat(failure.getMessage()).contains("rank 2");
                }
            }
            // rank 1 and rank 0 still talk
            assertThat(modules.get(1).send(ofOne.get(0), (byte) 1, MemorySegment.ofArray(new byte[8]),
                    MemorySegment.ofArray(new byte[100]))).isTrue();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (fromOne[0] < 1) {
                modules.get(1).progress();
                try {
                    modules.get(0).progress();
                } catch (PeerFailureException e) {
                    assertThat(e.rank()).as("only rank 2 may fail: %s", e.getMessage()).isEqualTo(2);
                }
                assertThat(System.nanoTime()).isLessThan(deadline);
            }
            assertThat(ofZero.get(1)).isNotNull();
        } finally {
            modules.forEach(TcpBtlModule::finalizeModule);
        }
    }
}
