package org.jmca.btl.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.LapiException;
import org.jmca.common.lapi.LapiMode;

/**
 * Fuzzes the LAPI packets a task's dispatcher reads from its rings (kind as the record's tag,
 * the 40-byte header, the payload), as another task of the host writes them: well-formed packets
 * the target refuses or ignores (puts and gets outside exposed memory, answers to nothing), and
 * packets with one field wrong (records shorter than the header, unknown kinds, RMW operations
 * past the four, user headers longer than the payload, active-message data with no message in
 * progress). A malformed packet must fail the task with a {@link LapiException} naming the
 * sender, never with an index or null-pointer error, and the put that follows it must still land.
 */
class DispatcherFuzzTest {
    /** One forged packet; {@code recordBytes} below 40 forges a record cut short. */
    record Forged(byte kind, long id, long a, long b, long c, long flags, int payload, int recordBytes,
                  boolean malformed) {
    }

    @Provide
    Arbitrary<List<Forged>> packets() {
        Arbitrary<Long> any = Arbitraries.longs();
        Arbitrary<Integer> payload = Arbitraries.integers().between(0, 200);
        return Arbitraries.frequencyOf(
                Tuple.of(2, Combinators.combine(any, payload).as((address, n) ->
                        new Forged(Packet.PUT, 1, address, 0, 0, Packet.LAST, n, -1, false))),
                Tuple.of(2, Combinators.combine(any, any).as((address, length) ->
                        new Forged(Packet.GET, 2, address, length, 0, Packet.LAST, 0, -1, false))),
                Tuple.of(2, Combinators.combine(Arbitraries.of(Packet.ACK, Packet.GET_REPLY, Packet.RMW_REPLY), any, payload)
                        .as((kind, id, n) -> new Forged(kind, id, 0, 0, 0, Packet.LAST, n, -1, false))),
                Tuple.of(1, Combinators.combine(any, Arbitraries.integers().between(0, 255)).as((address, op) ->
                        new Forged(Packet.RMW, 3, address, 0, 0, Packet.rmwFlags(op), 0, -1, op >= 4))),
                Tuple.of(1, Combinators.combine(Arbitraries.integers().between(1, 0xFFFF), payload).as((header, n) ->
                        new Forged(Packet.AM, 4, 1, 0, 0, Packet.userHeaderFlags(header) | Packet.LAST, n, -1,
                                header > n))),
                Tuple.of(1, Combinators.combine(any, Arbitraries.integers().between(1, 200)).as((offset, n) ->
                        new Forged(Packet.AM_DATA, 5, offset, 0, 0, 0, n, -1, true))),
                Tuple.of(1, Combinators.combine(Arbitraries.of(Packet.PUT, Packet.GET, Packet.AM, Packet.RMW),
                        Arbitraries.integers().between(0, Packet.HEADER - 1)).as((kind, bytes) ->
                        new Forged(kind, 6, 0, 0, 0, 0, 0, bytes, true))),
                Tuple.of(1, Arbitraries.oneOf(Arbitraries.bytes().between((byte) 9, Byte.MAX_VALUE),
                        Arbitraries.bytes().between(Byte.MIN_VALUE, (byte) -1)).map(kind ->
                        new Forged(kind, 7, 0, 0, 0, 0, 0, -1, true))))
                .list().ofMaxSize(8).map(DispatcherFuzzTest::dataWithoutAMessageIsMalformed);
    }

    /**
     * Active-message data is malformed for certain only where no active message came before it:
     * after one, whether it fits depends on that message's reception, so such data is left out.
     */
    private static List<Forged> dataWithoutAMessageIsMalformed(List<Forged> packets) {
        List<Forged> kept = new java.util.ArrayList<>();
        boolean message = false;
        for (Forged p : packets) {
            if (p.kind() == Packet.AM_DATA && message) {
                continue;
            }
            message |= p.kind() == Packet.AM;
            kept.add(p);
        }
        return kept;
    }

    @Property(tries = 40)
    void aMalformedPacketFailsTheTaskNamingItsSenderAndThePutAfterItStillLands(
            @ForAll("packets") List<Forged> packets) {
        // Shared: the exposed memory is written by whichever thread dispatches the put, task 1's
        // tick thread included (it runs in every mode); and freed only after the tasks closed.
        try (Arena arena = Arena.ofShared();
             LapiTasks job = LapiTasks.connected(2, LapiTasks.settings(LapiMode.POLLING))) {
            LapiTask target = job.get(1);
            MemorySegment exposed = arena.allocate(4096, 64);
            target.expose(exposed);
            // Task 0 sends nothing itself, so the test may be the producer of its ring at task 1.
            SharedRing fromTask0 = TaskFile.open(job.fabric(), 1, 2, arena).ring(0);
            MemorySegment header = arena.allocate(Packet.HEADER, 8);
            for (Forged p : packets) {
                header.set(ValueLayout.JAVA_LONG, 0, p.id());
                header.set(ValueLayout.JAVA_LONG, Packet.A, p.a());
                header.set(ValueLayout.JAVA_LONG, Packet.B, p.b());
                header.set(ValueLayout.JAVA_LONG, Packet.C, p.c());
                header.set(ValueLayout.JAVA_LONG, Packet.FLAGS, p.flags());
                MemorySegment body = p.recordBytes() >= 0 ? header.asSlice(0, p.recordBytes()) : header;
                assertThat(fromTask0.offer(p.kind(), body, MemorySegment.ofArray(new byte[p.payload()]))).isTrue();
            }
            // Then a well-formed put of 8 bytes into the exposed memory.
            header.set(ValueLayout.JAVA_LONG, 0, 8L);
            header.set(ValueLayout.JAVA_LONG, Packet.A, exposed.address() + 64);
            header.set(ValueLayout.JAVA_LONG, Packet.B, 0L);
            header.set(ValueLayout.JAVA_LONG, Packet.FLAGS, Packet.LAST);
            assertThat(fromTask0.offer(Packet.PUT, header, MemorySegment.ofArray(new long[] {0x5EED_5EEDL}))).isTrue();

            long deadline = System.nanoTime() + 15_000_000_000L; // a bound against a hang, far above a loaded machine's time
            while (exposed.get(ValueLayout.JAVA_LONG, 64) != 0x5EED_5EEDL) {
                assertThat(System.nanoTime()).as("the put after the forged packets landed").isLessThan(deadline);
                try {
                    target.probe();
                } catch (LapiException e) {
                    // failed already: the dispatcher went on with the ring all the same
                }
            }
            boolean malformed = packets.stream().anyMatch(Forged::malformed);
            assertThat(target.failed()).as("the task failed").isEqualTo(malformed);
            if (malformed) {
                try {
                    target.probe();
                    throw new AssertionError("a failed task's calls throw");
                } catch (LapiException e) {
                    assertThat(e).hasMessageContaining("from task 0")
                            .hasMessageNotContaining("Exception").hasMessageNotContaining("Error");
                }
            }
        }
    }
}
