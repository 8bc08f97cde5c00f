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
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jmca.btl.base.RingFile;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmPriority;
import org.jmca.mca.McaException;

/**
 * Fuzzes the packets of the emulated GM NIC's rings (a record: kind as its tag, sendId, word,
 * payload) as a peer process on the host writes them into a port: well-formed packets and ones
 * with one field wrong ({@link GmPackets}), records shorter than the packet header. A port must
 * place every well-formed message, and fail at the first bad packet with an {@link McaException}
 * naming the sending node, never an index or null-pointer error, and stay failed.
 */
class EmulatedGmPortFuzzTest {
    private static final int PORT = 3;
    private static final EmulatedGmPort.Settings SETTINGS = new EmulatedGmPort.Settings(1 << 16, 4, 8, 0, 0);
    private static Path fabric;

    @BeforeContainer
    static void fabric() throws IOException {
        fabric = Files.createTempDirectory("gm-fuzz");
        fabric.toFile().deleteOnExit();
    }

    @Provide
    Arbitrary<List<GmPackets.Packet>> packets() {
        return GmPackets.packets(false).list().ofMaxSize(12);
    }

    @Property(tries = 150)
    void aPortPlacesWellFormedMessagesAndFailsAtTheFirstBadPacketNamingItsNode(
            @ForAll("packets") List<GmPackets.Packet> packets) {
        try (Arena arena = Arena.ofConfined(); EmulatedGmPort port = EmulatedGmPort.open(fabric, 2, 2, PORT, SETTINGS)) {
            MemorySegment buffers = arena.allocate(8L << GmPackets.SIZE, 64);
            port.register(buffers);
            for (int i = 0; i < 8; i++) {
                port.provideReceiveBuffer(buffers.asSlice((long) i << GmPackets.SIZE, 1L << GmPackets.SIZE),
                        GmPackets.SIZE, GmPriority.LOW, i);
            }
            // Node 1 of the fabric, as a peer process writing into node 2's port.
            SharedRing fromNode1 = RingFile.open(EmulatedGmPort.pathOf(fabric, 2, PORT), EmulatedGmPort.KIND, arena).ring(0);
            for (GmPackets.Packet packet : packets) {
                boolean offered = packet.headerBytes() >= 0
                        ? fromNode1.offer(packet.kind(), MemorySegment.ofArray(new byte[packet.headerBytes()]), MemorySegment.NULL)
                        : fromNode1.offer(packet.kind(), packet.sendId(), packet.word(), MemorySegment.ofArray(packet.payload()));
                assertThat(offered).isTrue();
            }
            int firstBroken = 0;
            while (firstBroken < packets.size() && packets.get(firstBroken).broken() == null) {
                firstBroken++;
            }
            List<byte[]> expected = packets.subList(0, firstBroken).stream().filter(GmPackets.Packet::isMessage)
                    .map(GmPackets.Packet::delivered).toList();

            List<byte[]> placed = new ArrayList<>();
            McaException failure = null;
            for (int turn = 0; turn < 3 * packets.size() + 3 && failure == null; turn++) {
                try {
                    if (port.receive() instanceof GmEvent.Received received) {
                        placed.add(received.buffer().asSlice(0, received.length()).toArray(ValueLayout.JAVA_BYTE));
                        port.provideReceiveBuffer(received.buffer(), received.size(), received.priority(), received.tag());
                    }
                } catch (McaException e) {
                    failure = e;
                }
            }
            assertThat(placed.size()).as("messages placed").isLessThanOrEqualTo(expected.size());
            assertThat(placed).as("messages placed, in order").usingElementComparator(java.util.Arrays::compare)
                    .containsExactlyElementsOf(expected.subList(0, placed.size()));
            if (firstBroken < packets.size()) {
                assertThat(failure).as("the port fails at %s", packets.get(firstBroken)).isNotNull();
                assertThat(failure).hasMessageContaining("node 1 sent");
                McaException first = failure;
                assertThatThrownBy(port::receive).as("and stays failed").isSameAs(first);
            } else {
                assertThat(failure).isNull();
                assertThat(placed).usingElementComparator(java.util.Arrays::compare).containsExactlyElementsOf(expected);
            }
        }
    }
}
