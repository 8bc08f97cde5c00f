package org.jmca.btl.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SmDoorbellTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPeerRingsOnlyAnArmedBellAndTheRingWakesTheSleeperThroughTheMapping() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            SmSegment owner = SmSegment.create(dir.resolve("segment"), 2, 4096, arena);
            // The peer maps the same file separately, as another process would.
            SmSegment mappedByPeer = SmSegment.open(dir.resolve("segment"), arena);
            FutexDoorbell bell = owner.ownDoorbell(arena, () -> false);
            FutexDoorbell peersView = mappedByPeer.peersDoorbell();
            assertThat(bell.probe()).isNull();

            assertThat(peersView.ringIfArmed()).as("a disarmed bell is not rung").isFalse();
            assertThat(bell.rings()).isZero();

            bell.arm();
            int seen = bell.rings();
            CompletableFuture<Long> slept = CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                while (bell.rings() == seen) {
                    bell.await(seen, TimeUnit.SECONDS.toNanos(20));
                }
                return System.nanoTime() - start;
            });
            Thread.sleep(200);
            assertThat(slept).as("the sleeper waits for a ring").isNotDone();
            assertThat(peersView.ringIfArmed()).isTrue();
            assertThat(slept.get(10, TimeUnit.SECONDS)).as("woken well before the 20 s timeout")
                    .isLessThan(TimeUnit.SECONDS.toNanos(10));
            assertThat(bell.rings()).isEqualTo(seen + 1);

            bell.disarm();
            assertThat(peersView.ringIfArmed()).isFalse();
        }
    }

    @Test
    void anArrivalWaitingInARingIsSeenWithoutConsumingIt() {
        try (Arena arena = Arena.ofShared()) {
            SmSegment owner = SmSegment.create(dir.resolve("segment"), 2, 4096, arena);
            SharedRing consumer = owner.ring(1);
            SharedRing producer = SmSegment.open(dir.resolve("segment"), arena).ring(1);
            assertThat(consumer.hasRecord()).isFalse();
            producer.offer((byte) 3, MemorySegment.ofArray(new byte[8]),
                    MemorySegment.ofArray(new byte[0]));
            assertThat(consumer.hasRecord()).isTrue();
            assertThat(consumer.hasRecord()).as("looking does not consume").isTrue();
            assertThat(consumer.poll((tag, data, offset, length) -> { })).isEqualTo(1);
            assertThat(consumer.hasRecord()).isFalse();
        }
    }
}
