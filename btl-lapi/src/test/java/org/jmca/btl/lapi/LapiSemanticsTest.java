package org.jmca.btl.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.jmca.common.lapi.Lapi;
import org.jmca.common.lapi.LapiCounter;
import org.jmca.common.lapi.LapiException;
import org.jmca.common.lapi.LapiMode;
import org.jmca.common.lapi.Reception;
import org.jmca.common.lapi.RmwOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * LAPI's semantics on the emulated switch, each task on a thread of its own: counters reach
 * their values exactly once per operation, header handlers run once per message, getcntr never
 * progresses, fence completes and orders, read-modify-write is atomic under contention; and what
 * tells the modes apart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LapiSemanticsTest {
    private static final long NO = Lapi.NO_COUNTER;

    /** Runs {@code body(task)} on a thread per task and waits for all; the first failure is rethrown. */
    static void onEveryTask(LapiTasks job, IntConsumer body) {
        List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (int t = 0; t < job.tasks.size(); t++) {
            int task = t;
            runs.add(CompletableFuture.runAsync(() -> body.accept(task), command -> Thread.ofPlatform().start(command)));
        }
        CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).orTimeout(50, TimeUnit.SECONDS).join();
    }

    private static MemorySegment filled(Arena arena, int bytes, int seed) {
        MemorySegment m = arena.allocate(bytes, 8);
        for (int i = 0; i < bytes; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 31));
        }
        return m;
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void aPutPlacesItsDataAndIncrementsEachOfItsCountersExactlyOnce(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(2, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(20_000, 8);
            LapiCounter[] targetCounters = {job.get(0).newCounter(), job.get(1).newCounter()};
            long[][] windows = new long[2][];
            long[][] counters = new long[2][];
            MemorySegment data = filled(arena, 20_000, 7); // five packets of 4 KiB
            LapiCounter origin = job.get(0).newCounter();
            LapiCounter completion = job.get(0).newCounter();
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                windows[t] = lapi.addressInit(t == 1 ? window : arena.allocate(8, 8));
                counters[t] = lapi.addressInit(targetCounters[t]);
                if (t == 0) {
                    lapi.put(1, windows[t][1], data, counters[t][1], origin, completion);
                    lapi.waitcntr(completion, 1);
                }
                lapi.gfence();
                lapi.gfence(); // more traffic, to show nothing is counted twice
            });
            assertThat(window.mismatch(data)).isEqualTo(-1);
            assertThat(origin.value()).as("origin counter").isEqualTo(1);
            assertThat(completion.value()).as("completion counter, after waitcntr took 1").isZero();
            assertThat(targetCounters[1].value()).as("target counter").isEqualTo(1);
            assertThat(targetCounters[0].value()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void aGetReadsTheTargetAndIncrementsTheTargetAndCompletionCountersOnce(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(2, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment source = filled(arena, 9_000, 3);
            MemorySegment into = arena.allocate(9_000, 8);
            LapiCounter read = job.get(1).newCounter();
            LapiCounter completion = job.get(0).newCounter();
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                long[] at = lapi.addressInit(t == 1 ? source : arena.allocate(8, 8));
                long[] counters = lapi.addressInit(t == 1 ? read : lapi.newCounter());
                if (t == 0) {
                    lapi.get(1, at[1], into, counters[1], completion);
                    lapi.waitcntr(completion, 1);
                }
                lapi.gfence();
            });
            assertThat(into.mismatch(source)).isEqualTo(-1);
            assertThat(read.value()).isEqualTo(1);
            assertThat(completion.value()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void theHeaderHandlerRunsOncePerMessageAndTheCompletionHandlerOnceAllDataIsIn(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(2, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment data = filled(arena, 10_000, 11); // the header and first data, then two more packets
            MemorySegment buffer = arena.allocate(10_000, 8);
            AtomicInteger headers = new AtomicInteger();
            List<Long> mismatchAtCompletion = new ArrayList<>();
            List<String> userHeaders = new ArrayList<>();
            job.get(1).registerHandler(5, (origin, userHeader, length) -> {
                headers.incrementAndGet();
                userHeaders.add(origin + ":" + userHeader.getString(0) + ":" + length);
                return new Reception(buffer, () -> mismatchAtCompletion.add(buffer.mismatch(data)));
            });
            LapiCounter completion = job.get(0).newCounter();
            LapiCounter target = job.get(1).newCounter();
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                long[] counters = lapi.addressInit(t == 1 ? target : lapi.newCounter());
                if (t == 0) {
                    lapi.amsend(1, 5, arena.allocateFrom("hello"), data, counters[1], null, completion);
                    lapi.waitcntr(completion, 1);
                }
                lapi.gfence();
            });
            assertThat(headers.get()).isEqualTo(1);
            assertThat(userHeaders).containsExactly("0:hello:10000");
            assertThat(mismatchAtCompletion).containsExactly(-1L);
            assertThat(target.value()).isEqualTo(1);
        }
    }

    /** How tasks reach each other; the wire test reaches them all over TCP. */
    LapiSettings.Wire wire() {
        return LapiSettings.Wire.AUTO;
    }

    LapiSettings settings(LapiMode mode) {
        return LapiTasks.settings(mode, wire());
    }

    /** Polling mode with a tick too long to matter: nothing but calls progress. */
    private LapiSettings pollingWithoutTick() {
        return new LapiSettings(LapiMode.POLLING, 4096, 64 * 1024, 600_000, 60, wire());
    }

    @Test
    void getcntrNeverEntersTheDispatcherWhileProbeDoes() throws Exception {
        try (LapiTasks job = LapiTasks.connected(2, pollingWithoutTick()); Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(64, 8);
            long[][] at = new long[2][];
            onEveryTask(job, t -> at[t] = job.get(t).addressInit(t == 1 ? window : arena.allocate(8, 8)));
            AtomicBoolean stop = new AtomicBoolean();
            Thread target = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    job.get(1).probe(); // the target answers at once
                }
            });
            try {
                LapiTask origin = job.get(0);
                LapiCounter completion = origin.newCounter();
                origin.put(1, at[0][1], filled(arena, 64, 1), NO, null, completion);
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < deadline) {
                    assertThat(origin.getcntr(completion)).as("getcntr alone never takes in the acknowledgement")
                            .isZero();
                }
                assertThat(window.get(ValueLayout.JAVA_BYTE, 63)).as("the put itself went out with its call")
                        .isEqualTo(filled(arena, 64, 1).get(ValueLayout.JAVA_BYTE, 63));
                origin.probe();
                assertThat(origin.getcntr(completion)).as("one probe takes it in").isEqualTo(1);
            } finally {
                stop.set(true);
                target.join();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = LapiMode.class, names = {"INTERRUPT", "LOCKFREE"})
    void theNotificationThreadProgressesATargetThatMakesNoCalls(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(2, new LapiSettings(mode, 4096, 64 * 1024, 600_000, 60, wire()));
             Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(64, 8);
            long[][] at = new long[2][];
            onEveryTask(job, t -> at[t] = job.get(t).addressInit(t == 1 ? window : arena.allocate(8, 8)));
            LapiCounter completion = job.get(0).newCounter();
            MemorySegment data = filled(arena, 64, 9);
            job.get(0).put(1, at[0][1], data, NO, null, completion);
            job.get(0).waitcntr(completion, 1); // task 1 makes no call meanwhile
            assertThat(window.mismatch(data)).isEqualTo(-1);
        }
    }

    @Test
    void inPollingModeATargetThatMakesNoCallsLeavesTheOperationIncomplete() throws Exception {
        try (LapiTasks job = LapiTasks.connected(2, pollingWithoutTick()); Arena arena = Arena.ofShared()) {
            long[][] at = new long[2][];
            onEveryTask(job, t -> at[t] = job.get(t).addressInit(arena.allocate(64, 8)));
            LapiCounter completion = job.get(0).newCounter();
            job.get(0).put(1, at[0][1], filled(arena, 64, 9), NO, null, completion);
            CompletableFuture<Void> wait = CompletableFuture.runAsync(() -> job.get(0).waitcntr(completion, 1));
            Thread.sleep(300);
            assertThat(wait).as("no acknowledgement while task 1 makes no call").isNotDone();
            job.get(1).probe();
            wait.get(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void fenceReturnsOnceEveryOperationIsCompleteAndOrdersPutsToTheSamePlace(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(2, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(8192, 8);
            MemorySegment first = filled(arena, 8192, 1);
            MemorySegment second = filled(arena, 8192, 2);
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                long[] at = lapi.addressInit(t == 1 ? window : arena.allocate(8, 8));
                if (t == 0) {
                    lapi.put(1, at[1], first, NO, null, null);
                    lapi.fence();
                    assertThat(window.mismatch(first)).as("after the fence, the put is in place").isEqualTo(-1);
                    lapi.put(1, at[1], second, NO, null, null);
                    lapi.fence();
                }
                lapi.gfence();
            });
            assertThat(window.mismatch(second)).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void readModifyWriteIsAtomicUnderContentionFromEveryTask(LapiMode mode) {
        int tasks = 4;
        int each = 300;
        try (LapiTasks job = LapiTasks.connected(tasks, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment words = arena.allocate(16, 8);
            long[][] previous = new long[tasks][each];
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                long[] at = lapi.addressInit(t == 0 ? words : arena.allocate(16, 8));
                LapiCounter done = lapi.newCounter();
                MemorySegment prev = arena.allocate(8, 8);
                for (int i = 0; i < each; i++) {
                    lapi.rmw(0, RmwOp.FETCH_AND_ADD, at[0], 1, 0, prev, done);
                    lapi.waitcntr(done, 1);
                    previous[t][i] = prev.get(ValueLayout.JAVA_LONG, 0);
                    long seen;
                    do { // an increment by compare-and-swap, racing the others
                        lapi.rmw(0, RmwOp.FETCH_AND_ADD, at[0] + 8, 0, 0, prev, done);
                        lapi.waitcntr(done, 1);
                        seen = prev.get(ValueLayout.JAVA_LONG, 0);
                        lapi.rmw(0, RmwOp.COMPARE_AND_SWAP, at[0] + 8, seen + 1, seen, prev, done);
                        lapi.waitcntr(done, 1);
                    } while (prev.get(ValueLayout.JAVA_LONG, 0) != seen);
                }
                lapi.gfence();
            });
            assertThat(words.get(ValueLayout.JAVA_LONG, 0)).isEqualTo((long) tasks * each);
            assertThat(words.get(ValueLayout.JAVA_LONG, 8)).isEqualTo((long) tasks * each);
            long[] all = java.util.Arrays.stream(previous).flatMapToLong(java.util.Arrays::stream).sorted().toArray();
            for (int i = 0; i < all.length; i++) {
                assertThat(all[i]).as("every fetch-and-add saw a different value").isEqualTo(i);
            }
        }
    }

    @Test
    void swapAndFetchAndOrReturnTheValueBefore() {
        try (LapiTasks job = LapiTasks.connected(2, settings(LapiMode.POLLING)); Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(8, 8);
            word.set(ValueLayout.JAVA_LONG, 0, 0b0101);
            long[] seen = new long[2];
            onEveryTask(job, t -> {
                LapiTask lapi = job.get(t);
                long[] at = lapi.addressInit(t == 1 ? word : arena.allocate(8, 8));
                if (t == 0) {
                    LapiCounter done = lapi.newCounter();
                    MemorySegment prev = arena.allocate(8, 8);
                    lapi.rmw(1, RmwOp.FETCH_AND_OR, at[1], 0b1010, 0, prev, done);
                    lapi.waitcntr(done, 1);
                    seen[0] = prev.get(ValueLayout.JAVA_LONG, 0);
                    lapi.rmw(1, RmwOp.SWAP, at[1], 42, 0, prev, done);
                    lapi.waitcntr(done, 1);
                    seen[1] = prev.get(ValueLayout.JAVA_LONG, 0);
                }
                lapi.gfence();
            });
            assertThat(seen).containsExactly(0b0101, 0b1111);
            assertThat(word.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(42);
        }
    }

    @Test
    void aPutOutsideTheExposedMemoryFailsTheOriginNamingTheAddressAndLeavesTheTargetUntouched() {
        try (LapiTasks job = LapiTasks.connected(2, settings(LapiMode.POLLING)); Arena arena = Arena.ofShared()) {
            MemorySegment window = arena.allocate(64, 8);
            long[][] at = new long[2][];
            onEveryTask(job, t -> at[t] = job.get(t).addressInit(t == 1 ? window : arena.allocate(8, 8)));
            LapiTask origin = job.get(0);
            long beyond = at[0][1] + 60;
            origin.put(1, beyond, filled(arena, 16, 5), NO, null, null);
            // the target refuses only when it progresses: it probes until the origin's fence is over
            AtomicBoolean fenced = new AtomicBoolean();
            Thread prober = Thread.ofPlatform().start(() -> {
                while (!fenced.get()) {
                    job.get(1).probe();
                }
            });
            try {
                assertThatThrownBy(origin::fence).isInstanceOf(LapiException.class)
                        .hasMessageContaining("task 1 refused the put")
                        .hasMessageContaining("0x" + Long.toHexString(beyond))
                        .hasMessageContaining("not in memory the target exposed");
            } finally {
                fenced.set(true);
            }
            assertThat(window.toArray(ValueLayout.JAVA_BYTE)).containsOnly(0);
            org.assertj.core.api.Assertions.assertThatCode(prober::join).doesNotThrowAnyException();
        }
    }

    @Test
    void anOperationToATaskThatIsGoneFailsWithinTheTimeoutNamingTheTaskNotHanging() {
        LapiTasks job = LapiTasks.connected(2, settings(LapiMode.POLLING));
        try (job; Arena arena = Arena.ofShared()) {
            long[][] at = new long[2][];
            onEveryTask(job, t -> at[t] = job.get(t).addressInit(arena.allocate(64, 8)));
            job.get(1).close();
            LapiTask origin = job.get(0);
            origin.put(1, at[0][1], filled(arena, 64, 3), NO, null, origin.newCounter());
            assertThatThrownBy(origin::fence).isInstanceOf(LapiException.class)
                    .hasMessageContaining("task 1 can no longer be reached")
                    .hasMessageContaining("put #");
        }
    }

    @Test
    void badArgumentsAreRefusedAtTheCall() {
        try (LapiTasks job = LapiTasks.connected(2, settings(LapiMode.POLLING)); Arena arena = Arena.ofShared()) {
            LapiTask lapi = job.get(0);
            assertThatThrownBy(() -> lapi.put(2, 0, arena.allocate(8), NO, null, null))
                    .isInstanceOf(LapiException.class).hasMessageContaining("target task 2 is outside 0..1");
            assertThatThrownBy(() -> lapi.amsend(1, Lapi.HANDLERS, arena.allocate(1), arena.allocate(0), NO, null, null))
                    .hasMessageContaining("handler index 64 is outside 0..63");
            assertThatThrownBy(() -> lapi.amsend(1, 0, arena.allocate(2000), arena.allocate(0), NO, null, null))
                    .hasMessageContaining("a user header of 2000 bytes is above the largest, 1024");
            assertThatThrownBy(() -> lapi.waitcntr(new LapiCounter() {
                @Override
                public long value() {
                    return 0;
                }
            }, 1)).hasMessageContaining("was not made by btl/lapi's newCounter()");
        }
    }

    @Test
    void waitcntrWaitsForTheValueAndTakesItOff() {
        try (LapiTasks job = LapiTasks.connected(1, settings(LapiMode.POLLING)); Arena arena = Arena.ofShared()) {
            LapiTask lapi = job.get(0);
            MemorySegment window = arena.allocate(8, 8);
            long[] at = lapi.addressInit(window);
            LapiCounter done = lapi.newCounter();
            for (int i = 0; i < 5; i++) {
                lapi.put(0, at[0], filled(arena, 8, i), NO, null, done);
            }
            lapi.waitcntr(done, 3);
            lapi.fence();
            assertThat(lapi.getcntr(done)).isEqualTo(2);
            lapi.setcntr(done, 7);
            assertThat(lapi.getcntr(done)).isEqualTo(7);
        }
    }

    @ParameterizedTest
    @EnumSource(LapiMode.class)
    void everyTaskLearnsEveryAddressAndEveryCounter(LapiMode mode) {
        try (LapiTasks job = LapiTasks.connected(3, settings(mode)); Arena arena = Arena.ofShared()) {
            MemorySegment[] windows = {arena.allocate(8), arena.allocate(16), arena.allocate(24)};
            long[][] seen = new long[3][];
            onEveryTask(job, t -> {
                seen[t] = job.get(t).addressInit(windows[t]);
                job.get(t).gfence();
            });
            long[] expected = {windows[0].address(), windows[1].address(), windows[2].address()};
            assertThat(seen).isDeepEqualTo(new long[][] {expected, expected, expected});
        }
    }
}
