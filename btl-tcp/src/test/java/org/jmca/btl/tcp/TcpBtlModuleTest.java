package org.jmca.btl.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.jmca.mca.Counter;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpBtlModuleTest {
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<TcpBtlModule> modules = new ArrayList<>();
    private final List<List<BtlEndpoint>> endpoints = new ArrayList<>();
    private final int[] received = new int[2];

    private void open(int size) {
        for (int r = 0; r < size; r++) {
            modules.add(new TcpBtlModule(r, "localhost", TcpBtlContractTest.KEY, TcpBtlContractTest.loopback(),
                    TcpBtlContractTest.settings(), log::add));
        }
        List<Peer> peers = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            peers.add(new Peer(r, "localhost", modules.get(r).localAddress()));
        }
        for (int r = 0; r < size; r++) {
            int rank = r;
            endpoints.add(modules.get(r).addPeers(peers));
            modules.get(r).setReceiver((from, tag, memory, offset, length) -> received[rank]++);
        }
    }

    @AfterEach
    void close() {
        modules.forEach(TcpBtlModule::finalizeModule);
    }

    private void progressUntil(BooleanSupplier done) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            modules.forEach(TcpBtlModule::progress);
            assertThat(System.nanoTime()).isLessThan(deadline);
        }
    }

    private static MemorySegment bytes(int n) {
        return MemorySegment.ofArray(new byte[n]);
    }

    @Test
    void simultaneousConnectsEndWithOneConnectionAndNoLostFragment() {
        open(2);
        for (int i = 0; i < 10; i++) {
            modules.get(0).send(endpoints.get(0).get(1), (byte) 1, bytes(4), bytes(i));
            modules.get(1).send(endpoints.get(1).get(0), (byte) 1, bytes(4), bytes(i));
        }
        progressUntil(() -> received[0] == 10 && received[1] == 10);
        TcpEndpoint zeroToOne = (TcpEndpoint) endpoints.get(0).get(1);
        TcpEndpoint oneToZero = (TcpEndpoint) endpoints.get(1).get(0);
        assertThat(zeroToOne.state()).isEqualTo(TcpEndpoint.State.CONNECTED);
        assertThat(oneToZero.state()).isEqualTo(TcpEndpoint.State.CONNECTED);
        assertThat(zeroToOne.outgoing()).isNull();
        assertThat(oneToZero.outgoing()).isNull();
    }

    @Test
    void theCountersSayWhatCrossedTheConnection() {
        open(2);
        int frames = 5;
        int payload = 10_000;
        for (int i = 0; i < frames; i++) {
            // sent before the connection exists: queued, then written
            assertThat(modules.get(0).send(endpoints.get(0).get(1), (byte) 1, bytes(4), bytes(payload))).isTrue();
        }
        progressUntil(() -> received[1] == frames);
        long frameBytes = (long) frames * (TcpWire.FRAME_HEADER + 4 + payload);
        assertThat(counter(1, TcpBtlModule.BYTES_READ)).isEqualTo(frameBytes);
        assertThat(counter(1, TcpBtlModule.READS)).isBetween(1L, frameBytes);
        assertThat(counter(0, TcpBtlModule.BYTES_QUEUED)).isEqualTo(frameBytes);
        assertThat(counter(0, TcpBtlModule.WRITES)).isPositive();
        assertThat(counter(0, TcpBtlModule.BYTES_READ)).isZero();
    }

    private long counter(int rank, Counter counter) {
        return modules.get(rank).performanceVariables().stream().filter(v -> v.name().equals(counter.name()))
                .findFirst().orElseThrow().read();
    }

    @Test
    void aConnectionWithoutTheJobKeyIsRefusedAndLogged() throws IOException {
        open(2);
        InetSocketAddress address = modules.get(1).listening().getFirst();
        try (Socket stranger = new Socket(address.getAddress(), address.getPort())) {
            ByteBuffer handshake = TcpWire.handshake(TcpWire.keyDigest("another job".getBytes()), 0);
            OutputStream out = stranger.getOutputStream();
            out.write(handshake.array());
            out.flush();
            progressUntil(() -> !log.isEmpty());
            stranger.setSoTimeout(5000);
            assertThat(stranger.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
        }
        assertThat(log).singleElement().asString()
                .startsWith("btl/tcp: rank 1 refused a connection from /127.0.0.1:")
                .endsWith("it did not present this job's key");
    }

    @Test
    void aPeerThatVanishesWithoutGoodbyeIsReportedAsFailed() throws IOException {
        open(2);
        InetSocketAddress address = modules.get(0).listening().getFirst();
        try (Socket impostorOfRankOne = new Socket(address.getAddress(), address.getPort())) {
            impostorOfRankOne.getOutputStream().write(
                    TcpWire.handshake(TcpWire.keyDigest(TcpBtlContractTest.KEY), 1).array());
            DataInputStream in = new DataInputStream(impostorOfRankOne.getInputStream());
            modules.get(0).progress();
            impostorOfRankOne.setSoTimeout(5000);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (((TcpEndpoint) endpoints.get(0).get(1)).state() != TcpEndpoint.State.CONNECTED) {
                modules.get(0).progress();
                assertThat(System.nanoTime()).isLessThan(deadline);
            }
            assertThat(in.readByte()).isEqualTo(TcpWire.ACCEPTED);
        }
        assertThatThrownBy(() -> progressUntil(() -> false))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageContaining("rank 0 lost its connection to rank 1")
                .hasMessageContaining("without finalizing");
    }

    @Test
    void aFinalizedPeerSaysGoodbyeAndSendingToItIsAClearError() {
        open(2);
        modules.get(0).send(endpoints.get(0).get(1), (byte) 1, bytes(4), bytes(4));
        progressUntil(() -> received[1] == 1);
        TcpBtlModule one = modules.remove(1);
        one.finalizeModule();
        progressUntil(() -> ((TcpEndpoint) endpoints.get(0).get(1)).state() == TcpEndpoint.State.PEER_FINALIZED);
        for (int i = 0; i < 100; i++) {
            modules.getFirst().progress();
        }
        assertThatThrownBy(() -> modules.getFirst().send(endpoints.get(0).get(1), (byte) 1, bytes(4), bytes(4)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageContaining("cannot send to rank 1: that rank has already finalized");
    }

    @Test
    void aPeerThatDoesNotListenIsUnreachableWithItsAddress() throws IOException {
        open(1);
        int freePort;
        try (var s = new java.net.ServerSocket(0)) {
            freePort = s.getLocalPort();
        }
        var peers = List.of(new Peer(0, "localhost", modules.getFirst().localAddress()),
                new Peer(1, "localhost", java.util.Map.of(TcpBtlModule.ADDRESSES_KEY, "127.0.0.1:" + freePort)));
        BtlEndpoint toOne = modules.getFirst().addPeers(peers).get(1);
        modules.getFirst().send(toOne, (byte) 1, bytes(4), bytes(4));
        assertThatThrownBy(() -> progressUntil(() -> false))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageContaining("cannot connect to rank 1 on localhost [/127.0.0.1:" + freePort + "]");
    }
}
