package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzes the {@link SharedRing} record format, from both ends: offers of any size and tag (a
 * length taken from a wire frame), and ring memory a peer forged (stamps right, lengths and tags
 * anything, padding of any length, random bytes). The ring sits between guard bytes that must
 * stay untouched; a handler must only ever be handed bytes inside the ring's data; only a
 * "corrupt ring" {@link IllegalStateException} or an offer's {@link IllegalArgumentException}
 * may come out; and a record that is not corrupt always gets through.
 */
class SharedRingFuzzTest {
    private static final int CAPACITY = 4096;
    private static final int MAX_RECORD = CAPACITY / 2 - SharedRing.RECORD_HEADER;
    private static final long GUARD = 256;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    /** A ring between guard bytes, with a producer and a consumer view. */
    private static final class Guarded implements AutoCloseable {
        final Arena arena = Arena.ofConfined();
        final MemorySegment memory = arena.allocate(GUARD + SharedRing.bytesFor(CAPACITY) + GUARD, 64);
        final MemorySegment data;
        final SharedRing producer;
        final SharedRing consumer;

        Guarded() {
            memory.fill(GUARD_BYTE);
            memory.asSlice(GUARD, SharedRing.bytesFor(CAPACITY)).fill((byte) 0);
            data = memory.asSlice(GUARD + SharedRing.DATA_OFFSET, CAPACITY);
            producer = new SharedRing(memory, GUARD, CAPACITY);
            consumer = new SharedRing(memory, GUARD, CAPACITY);
        }

        /** Forges the header of a record at {@code position}: its stamp, length and tag. */
        void forge(long position, long stamp, int length, byte tag) {
            data.set(ValueLayout.JAVA_LONG, position, stamp);
            data.set(ValueLayout.JAVA_LONG, position + 8, (length & 0xFFFF_FFFFL) | (long) (tag & 0xFF) << 32);
        }

        /** A handler that checks it is handed bytes of the ring's data only, then records the tag. */
        SharedRing.Handler inBounds(List<Byte> tags) {
            long start = data.address();
            return (tag, all, offset, length) -> {
                assertThat(offset).as("record start").isBetween(start, start + CAPACITY);
                assertThat(length).as("record length").isBetween(0L, start + CAPACITY - offset);
                tags.add(tag);
            };
        }

        void assertGuardsIntact() {
            for (long at : new long[] {0, GUARD + SharedRing.bytesFor(CAPACITY)}) {
                for (long i = at; i < at + GUARD; i++) {
                    assertThat(memory.get(ValueLayout.JAVA_BYTE, i)).as("guard byte at %d", i).isEqualTo(GUARD_BYTE);
                }
            }
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    @Property(tries = 600)
    void anOfferTooLargeForTheRingOrTaggedAsPaddingIsRefusedAndWritesNothing(
            @ForAll("recordSizes") long headerBytes, @ForAll("recordSizes") long payloadBytes, @ForAll byte tag,
            @ForAll boolean headerAsWords) {
        try (Guarded ring = new Guarded()) {
            long header = headerAsWords ? 16 : headerBytes;
            long total = header + payloadBytes;
            MemorySegment payload = MemorySegment.ofArray(new byte[(int) payloadBytes]);
            Runnable offer = () -> assertThat(headerAsWords ? ring.producer.offer(tag, 1L, 2L, payload)
                    : ring.producer.offer(tag, MemorySegment.ofArray(new byte[(int) header]), payload)).isTrue();
            if (tag == SharedRing.PAD) {
                assertThatThrownBy(offer::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tag 0");
            } else if (total > MAX_RECORD) {
                assertThatThrownBy(offer::run).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(total + " bytes").hasMessageContaining(String.valueOf(CAPACITY));
            } else {
                offer.run();
            }
            ring.assertGuardsIntact();
            // The ring still works: what was accepted, then a record offered after the refusal.
            assertThat(ring.producer.offer((byte) 9, 3L, 4L, MemorySegment.ofArray(new byte[40]))).isTrue();
            List<Byte> tags = new ArrayList<>();
            ring.consumer.poll(ring.inBounds(tags));
            assertThat(tags.getLast()).isEqualTo((byte) 9);
            ring.assertGuardsIntact();
        }
    }

    @Provide
    Arbitrary<Long> recordSizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.longs().between(0, 3L * CAPACITY)),
                Tuple.of(2, Arbitraries.longs().between(MAX_RECORD - 80, MAX_RECORD + 80)),
                Tuple.of(1, Arbitraries.longs().between(0, 64)));
    }

    /**
     * Sizes whose int casts wrap (2 GiB and more): the payload is a segment over address 0, which
     * the ring must refuse before it reads a byte of it (a regression crashes the JVM at once,
     * rather than writing through memory as the unchecked ring did).
     */
    @Property(tries = 300)
    void anOfferOfGigabytesIsRefusedBeforeAnyByteIsCopied(
            @ForAll @LongRange(min = Integer.MAX_VALUE - 100, max = 1L << 40) long hugeBytes,
            @ForAll @IntRange(min = 0, max = 64) int smallBytes, @ForAll boolean hugeHeader,
            @ForAll boolean headerAsWords) {
        try (Guarded ring = new Guarded()) {
            MemorySegment huge = MemorySegment.NULL.reinterpret(hugeBytes);
            MemorySegment small = MemorySegment.ofArray(new byte[smallBytes]);
            assertThatThrownBy(() -> {
                if (headerAsWords) {
                    ring.producer.offer((byte) 1, 1L, 2L, huge);
                } else {
                    ring.producer.offer((byte) 1, hugeHeader ? huge : small, hugeHeader ? small : huge);
                }
            }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
            ring.assertGuardsIntact();
        }
    }

    @Property(tries = 400)
    void aRecordWhoseHandlerThrowsIsConsumedOnceAndTheExceptionPropagatesOnce(
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 700) Integer> payloads,
            @ForAll Set<@IntRange(min = 0, max = 39) Integer> throwingRecords) {
        try (Guarded ring = new Guarded()) {
            List<Integer> delivered = new ArrayList<>();
            int[] thrown = {0};
            SharedRing.Handler handler = (tag, data, offset, length) -> {
                int record = data.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
                delivered.add(record);
                if (throwingRecords.contains(record)) {
                    throw new IllegalStateException("record " + record + " is poison");
                }
            };
            int polls = 0;
            for (int i = 0; i < payloads.size(); polls++) {
                MemorySegment payload = MemorySegment.ofArray(new byte[payloads.get(i)]);
                if (ring.producer.offer((byte) (1 + i % 100), i, 0L, payload)) {
                    i++;
                    continue;
                }
                thrown[0] += pollCounting(ring.consumer, handler);
                assertThat(polls).as("polls to offer %d records", payloads.size()).isLessThan(10 * payloads.size());
            }
            for (int i = 0; i < 3 * payloads.size() && ring.consumer.hasRecord(); i++) {
                thrown[0] += pollCounting(ring.consumer, handler);
            }
            assertThat(delivered).as("each record once, in order")
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, payloads.size()).boxed().toList());
            assertThat(thrown[0]).isEqualTo(throwingRecords.stream().filter(r -> r < payloads.size()).count());
            ring.assertGuardsIntact();
        }
    }

    private static int pollCounting(SharedRing consumer, SharedRing.Handler handler) {
        try {
            consumer.poll(handler);
            return 0;
        } catch (IllegalStateException e) {
            assertThat(e).hasMessageContaining("is poison");
            return 1;
        }
    }

    /** What a peer may have written at one place of the ring. */
    private record Forged(int kind, int length, byte tag) {
        static final int VALID = 0;
        static final int PADDING = 1;
        static final int GARBAGE = 2;
    }

    @Provide
    Arbitrary<List<Forged>> forgedRecords() {
        Arbitrary<Byte> tags = Arbitraries.bytes().filter(tag -> tag != SharedRing.PAD);
        return Arbitraries.frequencyOf(
                Tuple.of(4, Combinators.combine(Arbitraries.integers().between(16, 300), tags)
                        .as((length, tag) -> new Forged(Forged.VALID, length, tag))),
                Tuple.of(3, Arbitraries.integers().between(16, 300)
                        .map(length -> new Forged(Forged.PADDING, length, SharedRing.PAD))),
                Tuple.of(1, Combinators.combine(Arbitraries.integers(), Arbitraries.bytes())
                        .as((length, tag) -> new Forged(Forged.GARBAGE, length, tag))))
                .list().ofMaxSize(12);
    }

    @Property(tries = 1000)
    void forgedRecordsAreHandedOverSkippedOrReportedButNeverReadOutsideTheRing(
            @ForAll("forgedRecords") List<Forged> records, @ForAll long noiseSeed) {
        try (Guarded ring = new Guarded()) {
            byte[] noise = new byte[CAPACITY]; // stale bytes of earlier laps under and between the records
            new java.util.SplittableRandom(noiseSeed).nextBytes(noise);
            ring.data.copyFrom(MemorySegment.ofArray(noise));
            ring.data.set(ValueLayout.JAVA_LONG, 0, 0L); // no stale stamp at the head by chance
            long position = 0;
            boolean corrupt = false;
            List<Byte> expected = new ArrayList<>();
            for (Forged record : records) {
                if (position + 512 >= CAPACITY) {
                    break;
                }
                ring.forge(position, position + 1, record.length(), record.tag());
                if (record.kind() == Forged.GARBAGE) {
                    corrupt = record.length() < 16 || record.length() > CAPACITY - position;
                    if (corrupt) {
                        break;
                    }
                    // A length that happens to be plausible is a record like any other.
                }
                if (record.tag() != SharedRing.PAD) {
                    expected.add(record.tag());
                }
                position += (record.length() + 63) & ~63;
            }
            if (!corrupt && position + 64 <= CAPACITY) { // the next record a producer would write
                ring.forge(position, position + 1, 40, (byte) 77);
                expected.add((byte) 77);
            }
            List<Byte> tags = new ArrayList<>();
            if (corrupt) {
                assertThatThrownBy(() -> ring.consumer.poll(ring.inBounds(tags)))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("corrupt ring");
                assertThat(tags).isEqualTo(expected);
            } else {
                ring.consumer.poll(ring.inBounds(tags));
                assertThat(tags).as("every record, padding of any length skipped").isEqualTo(expected);
                assertThat(ring.consumer.hasRecord()).isFalse();
            }
            ring.assertGuardsIntact();
        }
    }
}
