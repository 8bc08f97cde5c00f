package org.jmca.btl.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmException;
import org.jmca.common.gm.GmPort;
import org.jmca.common.gm.GmPriority;
import org.jmca.common.gm.GmStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GM's rules on the emulated NIC: two ports (nodes 1 and 2) of one fabric, in this process, on
 * one host ({@link GmWireSemanticsTest}: across the TCP wire).
 */
class GmSemanticsTest {
    static final EmulatedGmPort.Settings SETTINGS = new EmulatedGmPort.Settings(1 << 16, 4, 8, 0, 0);

    @TempDir
    Path fabric;
    Arena arena;
    EmulatedGmPort a;
    EmulatedGmPort b;
    final List<GmStatus> sent = new ArrayList<>();

    @BeforeEach
    void open() {
        arena = Arena.ofShared();
        a = EmulatedGmPort.open(fabric, 1, 2, 2, SETTINGS);
        b = EmulatedGmPort.open(fabric, 2, 2, 2, SETTINGS);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        arena.close();
    }

    MemorySegment registered(EmulatedGmPort port, long bytes) {
        MemorySegment memory = arena.allocate(bytes, 64);
        port.register(memory);
        return memory;
    }

    MemorySegment message(EmulatedGmPort port, long bytes, long seed) {
        MemorySegment memory = registered(port, bytes);
        for (long i = 0; i < bytes; i++) {
            memory.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i));
        }
        return memory;
    }

    /** Lets both ports move until {@code port} has an event (or fails after 5 s); the other port must have none. */
    GmEvent.Received next(EmulatedGmPort port) {
        EmulatedGmPort other = port == a ? b : a;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            assertThat(other.receive()).isEqualTo(GmEvent.NONE);
            if (port.receive() instanceof GmEvent.Received received) {
                return received;
            }
            assertThat(System.nanoTime()).as("an event within 5 s").isLessThan(deadline);
        }
    }

    /** Moves both ports until {@code n} send callbacks have run (an acknowledgement may cross a wire), at most 5 s. */
    void awaitSent(int n) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sent.size() < n && System.nanoTime() < deadline) {
            a.receive();
            b.receive();
        }
    }

    void spin(int turns) {
        for (int i = 0; i < turns; i++) {
            assertThat(a.receive()).isEqualTo(GmEvent.NONE);
            assertThat(b.receive()).isEqualTo(GmEvent.NONE);
        }
    }

    @Test
    void sizeClassesHoldTwoToTheSizeLessEightBytes() {
        assertThat(GmPort.maxLengthForSize(5)).isEqualTo(24);
        assertThat(GmPort.minSizeForLength(24)).isEqualTo(5);
        assertThat(GmPort.minSizeForLength(25)).isEqualTo(6);
        assertThat(GmPort.minSizeForLength(65_536)).isEqualTo(17);
        assertThatThrownBy(() -> GmPort.maxLengthForSize(3)).isInstanceOf(GmException.class);
    }

    @Test
    void aMessageWaitsUntilABufferOfItsSizeAndPriorityIsProvidedAndOnlyThenReturnsItsToken() {
        MemorySegment out = message(a, 1000, 1);
        a.send(out, 10, GmPriority.LOW, 2, 2, sent::add);
        assertThat(a.sendTokens()).isEqualTo(3);
        b.provideReceiveBuffer(registered(b, 1 << 10), 10, GmPriority.HIGH, 7); // wrong priority
        b.provideReceiveBuffer(registered(b, 1 << 11), 11, GmPriority.LOW, 8); // wrong size
        spin(20);
        assertThat(sent).isEmpty();
        assertThat(a.sendTokens()).isEqualTo(3);
        MemorySegment right = registered(b, 1 << 10);
        b.provideReceiveBuffer(right, 10, GmPriority.LOW, 9);
        GmEvent.Received got = next(b);
        assertThat(got.tag()).isEqualTo(9);
        assertThat(got.length()).isEqualTo(1000);
        assertThat(got.size()).isEqualTo(10);
        assertThat(got.priority()).isEqualTo(GmPriority.LOW);
        assertThat(got.senderNode()).isEqualTo(1);
        assertThat(right.asSlice(0, 1000).mismatch(out)).isEqualTo(-1);
        awaitSent(1);
        assertThat(sent).containsExactly(GmStatus.SUCCESS);
        assertThat(a.sendTokens()).isEqualTo(4);
    }

    @Test
    void tokensNeverGoNegative() {
        MemorySegment out = message(a, 16, 2);
        for (int i = 0; i < 4; i++) {
            a.send(out, 5, GmPriority.LOW, 2, 2, sent::add);
        }
        assertThat(a.sendTokens()).isZero();
        assertThatThrownBy(() -> a.send(out, 5, GmPriority.LOW, 2, 2, sent::add)).isInstanceOf(GmException.class)
                .hasMessageContaining("no send token");
        assertThat(a.sendTokens()).isZero();
        MemorySegment in = registered(b, 8 * 32);
        for (int i = 0; i < 8; i++) {
            b.provideReceiveBuffer(in.asSlice(32L * i, 32), 5, GmPriority.HIGH, i);
        }
        assertThat(b.receiveTokens()).isZero();
        assertThatThrownBy(() -> b.provideReceiveBuffer(in.asSlice(0, 32), 5, GmPriority.LOW, 99))
                .isInstanceOf(GmException.class).hasMessageContaining("no receive token");
    }

    @Test
    void eachPriorityArrivesInOrderAndAHighMessagePassesALowOneThatWaits() {
        MemorySegment out = registered(a, 64 * 8);
        for (int i = 0; i < 4; i++) {
            out.set(ValueLayout.JAVA_LONG, 64L * i, i);
        }
        // LOW 0, HIGH 1, LOW 2, HIGH 3; only HIGH buffers at first.
        for (int i = 0; i < 4; i++) {
            a.send(out.asSlice(64L * i, 8), 5, i % 2 == 0 ? GmPriority.LOW : GmPriority.HIGH, 2, 2, sent::add);
        }
        MemorySegment in = registered(b, 32 * 4);
        b.provideReceiveBuffer(in.asSlice(0, 32), 5, GmPriority.HIGH, 0);
        b.provideReceiveBuffer(in.asSlice(32, 32), 5, GmPriority.HIGH, 1);
        assertThat(List.of(next(b), next(b))).extracting(e -> e.buffer().get(ValueLayout.JAVA_LONG, 0))
                .containsExactly(1L, 3L);
        b.provideReceiveBuffer(in.asSlice(64, 32), 5, GmPriority.LOW, 2);
        b.provideReceiveBuffer(in.asSlice(96, 32), 5, GmPriority.LOW, 3);
        assertThat(List.of(next(b), next(b))).extracting(e -> e.buffer().get(ValueLayout.JAVA_LONG, 0))
                .containsExactly(0L, 2L);
    }

    @Test
    void unregisteredMemoryIsRefusedForSendsBuffersAndDirectedSends() {
        MemorySegment loose = arena.allocate(64);
        assertThatThrownBy(() -> a.send(loose, 7, GmPriority.LOW, 2, 2, sent::add)).isInstanceOf(GmException.class)
                .hasMessageContaining("not in registered memory");
        assertThatThrownBy(() -> b.provideReceiveBuffer(arena.allocate(128), 7, GmPriority.LOW, 1))
                .isInstanceOf(GmException.class).hasMessageContaining("not in registered memory");
        assertThat(a.sendTokens()).isEqualTo(4);
        MemorySegment unregisteredTarget = arena.allocate(64);
        a.directedSend(message(a, 64, 3), unregisteredTarget.address(), GmPriority.LOW, 2, 2, sent::add);
        while (sent.isEmpty()) {
            b.receive();
            a.receive();
        }
        assertThat(sent).containsExactly(GmStatus.SEND_REJECTED);
        assertThat(unregisteredTarget.get(ValueLayout.JAVA_LONG, 0)).isZero();
    }

    @Test
    void aDirectedSendWritesRegisteredMemoryAfterTheSendsBeforeIt() {
        MemorySegment target = registered(b, 1 << 20);
        MemorySegment first = message(a, 100, 4);
        a.send(first, 7, GmPriority.LOW, 2, 2, sent::add); // waits: no buffer yet
        MemorySegment data = message(a, 1 << 20, 5);
        a.directedSend(data, target.address(), GmPriority.LOW, 2, 2, sent::add);
        spin(10);
        assertThat(target.get(ValueLayout.JAVA_LONG, 0)).as("held behind the waiting send").isZero();
        b.provideReceiveBuffer(registered(b, 128), 7, GmPriority.LOW, 1);
        next(b);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sent.size() < 2 && System.nanoTime() < deadline) {
            a.receive();
            assertThat(b.receive()).isEqualTo(GmEvent.NONE); // carries out the directed send if it came late
        }
        assertThat(sent).containsExactly(GmStatus.SUCCESS, GmStatus.SUCCESS);
        assertThat(target.mismatch(data)).isEqualTo(-1);
    }

    @Test
    void aLongMessageIsReadFromTheSendersMemory() {
        int length = (int) GmPort.maxLengthForSize(17);
        MemorySegment out = message(a, length, 6);
        a.send(out, 17, GmPriority.HIGH, 2, 2, sent::add);
        MemorySegment in = registered(b, 1 << 17);
        b.provideReceiveBuffer(in, 17, GmPriority.HIGH, 3);
        GmEvent.Received got = next(b);
        assertThat(got.length()).isEqualTo(length);
        assertThat(in.asSlice(0, length).mismatch(out)).isEqualTo(-1);
    }

    @Test
    void registrationCostsTheModelledTime() throws IOException {
        Path other = Files.createTempDirectory(fabric, "slow");
        try (EmulatedGmPort slow = EmulatedGmPort.open(other, 1, 1, 2,
                new EmulatedGmPort.Settings(1 << 16, 4, 8, 0, 10_000))) {
            long start = System.nanoTime();
            slow.register(arena.allocate(1 << 20)); // 256 pages x 10 us
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(2_560_000L);
        }
    }

    @Test
    void twoPortsOfOneNodeAreIndependentAndAPortTalksToItsNumberOnly() {
        try (EmulatedGmPort a3 = EmulatedGmPort.open(fabric, 1, 2, 3, SETTINGS);
             EmulatedGmPort b3 = EmulatedGmPort.open(fabric, 2, 2, 3, SETTINGS)) {
            MemorySegment out = message(a3, 16, 8);
            a3.send(out, 5, GmPriority.LOW, 2, 3, sent::add);
            b3.provideReceiveBuffer(registered(b3, 32), 5, GmPriority.LOW, 4);
            b.provideReceiveBuffer(registered(b, 32), 5, GmPriority.LOW, 5);
            GmEvent event = GmEvent.NONE;
            for (int i = 0; i < 100 && event == GmEvent.NONE; i++) {
                a3.receive();
                event = b3.receive();
            }
            assertThat(event).isInstanceOf(GmEvent.Received.class);
            assertThat(((GmEvent.Received) event).senderPort()).isEqualTo(3);
            assertThat(b.receive()).as("port 2 of node 2 saw nothing").isEqualTo(GmEvent.NONE);
            assertThatThrownBy(() -> a3.send(out, 5, GmPriority.LOW, 2, 2, sent::add)).isInstanceOf(GmException.class)
                    .hasMessageContaining("connects port 3 only to the ports 3");
        }
    }

    @Test
    void sendsToAClosedPortFailWithTheirTokensBack() {
        MemorySegment out = message(a, 16, 7);
        a.send(out, 5, GmPriority.LOW, 2, 2, sent::add); // waits at b: no buffer
        b.close();
        a.send(out, 5, GmPriority.LOW, 2, 2, sent::add);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sent.size() < 2 && System.nanoTime() < deadline) {
            a.receive();
        }
        assertThat(sent).containsExactly(GmStatus.SEND_TARGET_PORT_CLOSED, GmStatus.SEND_TARGET_PORT_CLOSED);
        assertThat(a.sendTokens()).isEqualTo(4);
    }
}
