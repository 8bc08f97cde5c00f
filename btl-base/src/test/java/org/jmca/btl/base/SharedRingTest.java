package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SharedRingTest {
    private static final int CAPACITY = 64 * 1024;

    private static MemorySegment memory() {
        return Arena.ofAuto().allocate(SharedRing.bytesFor(CAPACITY), 128);
    }

    @Test
    void aProducerThreadAndAConsumerThreadPassAMillionRecordsInOrder() throws InterruptedException {
        MemorySegment shared = memory();
        SharedRing producer = new SharedRing(shared, 0, CAPACITY);
        SharedRing consumer = new SharedRing(shared, 0, CAPACITY);
        int count = 1_000_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = Thread.ofPlatform().start(() -> {
            MemorySegment header = MemorySegment.ofArray(new byte[8]);
            MemorySegment payload = MemorySegment.ofArray(new byte[3000]);
            for (int i = 0; i < count; i++) {
                header.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                payload.set(ValueLayout.JAVA_BYTE, 0, (byte) i);
                MemorySegment body = payload.asSlice(0, i % 3000);
                while (!producer.offer((byte) (1 + i % 7), header, body)) {
                    Thread.onSpinWait();
                }
            }
        });
        long[] next = {0};
        SharedRing.Handler check = (tag, data, offset, length) -> {
            long i = data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            if (i != next[0] || tag != (byte) (1 + i % 7) || length != 8 + i % 3000
                    || (length > 8 && data.get(ValueLayout.JAVA_BYTE, offset + 8) != (byte) i)) {
                failure.compareAndSet(null, new AssertionError("record " + next[0] + " arrived as " + i));
            }
            next[0]++;
        };
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (next[0] < count && System.nanoTime() < deadline) {
            consumer.poll(check);
        }
        sender.join();
        assertThat(failure.get()).isNull();
        assertThat(next[0]).isEqualTo(count);
    }

    @Test
    void offeringAndPollingAllocateNothing() {
        MemorySegment shared = memory();
        SharedRing producer = new SharedRing(shared, 0, CAPACITY);
        SharedRing consumer = new SharedRing(shared, 0, CAPACITY);
        MemorySegment header = MemorySegment.ofArray(new byte[16]);
        MemorySegment payload = MemorySegment.ofArray(new byte[100]);
        long[] sum = {0};
        SharedRing.Handler handler = (tag, data, offset, length) -> sum[0] += length;
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // Once the JIT has compiled the loop (a few rounds; more on a loaded machine), a round allocates nothing.
        long perMessage = Long.MAX_VALUE;
        int rounds = 0;
        while (perMessage > 0 && rounds < 30) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                if (i % 2 == 0) {
                    producer.offer((byte) 1, header, payload);
                } else {
                    producer.offer((byte) 1, 1L, 2L, payload);
                }
                consumer.poll(handler);
            }
            perMessage = (threads.getCurrentThreadAllocatedBytes() - before) / 100_000;
            rounds++;
        }
        assertThat(perMessage).as("bytes allocated per message once compiled").isZero();
        assertThat(sum[0]).isEqualTo(rounds * 100_000L * (16 + 100));
    }

    @Test
    void aRecordThatWouldWrapStartsAgainAtTheBeginning() {
        MemorySegment shared = memory();
        SharedRing producer = new SharedRing(shared, 0, CAPACITY);
        SharedRing consumer = new SharedRing(shared, 0, CAPACITY);
        MemorySegment payload = MemorySegment.ofArray(new byte[10_000]);
        int[] got = {0};
        for (int i = 0; i < 50; i++) {
            assertThat(producer.offer((byte) 2, MemorySegment.ofArray(new byte[0]), payload)).isTrue();
            assertThat(consumer.poll((tag, data, offset, length) -> got[0] += (int) length)).isEqualTo(1);
        }
        assertThat(got[0]).isEqualTo(50 * 10_000);
    }

    @Test
    void aHeaderGivenAsTwoWordsArrivesAsTheSixteenBytesOfThoseWords() {
        MemorySegment shared = memory();
        SharedRing producer = new SharedRing(shared, 0, CAPACITY);
        SharedRing consumer = new SharedRing(shared, 0, CAPACITY);
        MemorySegment payload = pattern(37);
        // Enough records to wrap several times, alternating with records whose header is a segment.
        for (int i = 0; i < 5_000; i++) {
            long word0 = 0x0102_0304_0506_0708L * i;
            long word1 = ~word0;
            MemorySegment body = payload.asSlice(0, i % 38);
            boolean asWords = i % 2 == 0;
            assertThat(asWords ? producer.offer((byte) 3, word0, word1, body)
                    : producer.offer((byte) 4, MemorySegment.ofArray(new long[] {word0, word1}), body)).isTrue();
            int record = i;
            assertThat(consumer.poll((tag, data, offset, length) -> {
                assertThat(tag).isEqualTo((byte) (asWords ? 3 : 4));
                assertThat(length).as("record %d", record).isEqualTo(16 + body.byteSize());
                assertThat(data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset)).isEqualTo(word0);
                assertThat(data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8)).isEqualTo(word1);
                assertThat(data.asSlice(offset + 16, length - 16).toArray(ValueLayout.JAVA_BYTE))
                        .isEqualTo(body.toArray(ValueLayout.JAVA_BYTE));
            })).isEqualTo(1);
        }
    }

    @Test
    void everyRecordStartsACacheLineSoASmallMessageIsOneLine() {
        MemorySegment shared = memory();
        SharedRing producer = new SharedRing(shared, 0, CAPACITY);
        long position = 0;
        for (int payload : new int[] {8, 32, 33, 0, 200}) {
            assertThat(producer.offer((byte) 1, 1L, 2L, MemorySegment.ofArray(new byte[payload]))).isTrue();
            assertThat(shared.get(ValueLayout.JAVA_LONG, SharedRing.DATA_OFFSET + position))
                    .as("stamp of the record with %d payload bytes, at %d", payload, position).isEqualTo(position + 1);
            position += (SharedRing.RECORD_HEADER + 16 + payload + 63) / 64 * 64;
        }
        assertThat(position).as("8, 32 and 0 bytes take one line each").isEqualTo(64 + 64 + 128 + 64 + 256);
    }

    @Test
    void aRecordWhoseLengthRunsPastTheRingIsReportedNotRead() {
        MemorySegment shared = memory();
        SharedRing consumer = new SharedRing(shared, 0, CAPACITY);
        // A peer that wrote a stamp for position 0 and a length larger than the ring.
        shared.set(ValueLayout.JAVA_LONG, SharedRing.DATA_OFFSET, 1L);
        shared.set(ValueLayout.JAVA_LONG, SharedRing.DATA_OFFSET + 8, (long) CAPACITY + 64 | 5L << 32);
        assertThatThrownBy(() -> consumer.poll((tag, data, offset, length) -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt ring").hasMessageContaining(String.valueOf(CAPACITY + 64));
    }

    private static MemorySegment pattern(int size) {
        MemorySegment segment = MemorySegment.ofArray(new byte[size]);
        for (int i = 0; i < size; i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + 1));
        }
        return segment;
    }
}
