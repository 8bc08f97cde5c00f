package org.jmca.btl.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmca.common.lapi.Lapi;
import org.jmca.common.lapi.LapiCounter;
import org.jmca.common.lapi.LapiMode;
import org.jmca.common.lapi.Reception;
import org.jmca.common.lapi.RmwOp;

/**
 * Random mixes of put, get, active messages and fetch-and-add on 2-4 tasks, every task issuing
 * its program at once, in each dispatcher mode, against a sequential model: every byte lands
 * where the model says, every counter ends where the model says (each incremented exactly once
 * per operation), every header handler runs once per message, and the fetch-and-adds on a word
 * saw the values of some serial order (none lost, none seen twice).
 */
class LapiModelPropertyTest {
    /** Bytes of each operation's own slot: more than one packet of the tests' 4 KiB. */
    private static final int SLOT = 6000;
    private static final int MAX_OPS = 16;
    private static final int WORDS = 3;
    private static final int HANDLER = 1;

    enum Kind { PUT, GET, AM, ADD }

    record Op(Kind kind, int target, int size, int word, long operand) {
    }

    record Program(LapiMode mode, int tasks, List<List<Op>> perTask) {
        long count(int origin, Kind kind) {
            return perTask.get(origin).stream().filter(o -> o.kind() == kind).count();
        }

        long targeting(int target, Kind kind) {
            return perTask.stream().flatMap(List::stream).filter(o -> o.kind() == kind && o.target() == target).count();
        }
    }

    @Provide
    Arbitrary<Program> programs() {
        return Arbitraries.integers().between(2, 4).flatMap(tasks -> {
            Arbitrary<Op> op = Combinators.combine(Arbitraries.of(Kind.values()), Arbitraries.integers().between(0, tasks - 1),
                    Arbitraries.integers().between(0, SLOT), Arbitraries.integers().between(0, WORDS - 1),
                    Arbitraries.longs().between(1, 1000)).as(Op::new);
            return Combinators.combine(Arbitraries.of(LapiMode.values()), op.list().ofMaxSize(MAX_OPS).list().ofSize(tasks))
                    .as((mode, lists) -> new Program(mode, tasks, lists));
        });
    }

    /** The bytes an operation carries: a function of who sends it and its place in the program. */
    private static byte datum(int origin, int index, int i) {
        return (byte) (origin * 37 + index * 11 + i * 7 + 1);
    }

    private static final class Task {
        MemorySegment puts;
        MemorySegment messages;
        MemorySegment source;
        MemorySegment words;
        final LapiCounter targetCounter;
        final List<MemorySegment> gets = new ArrayList<>();
        final List<MemorySegment> previous = new ArrayList<>();
        LapiCounter origin;
        LapiCounter completion;
        LapiCounter rmw;

        Task(Lapi lapi) {
            targetCounter = lapi.newCounter();
        }
    }

    @Property(tries = 100)
    void randomMixesOfOperationsMatchTheSequentialModel(@ForAll("programs") Program program) {
        int n = program.tasks();
        try (LapiTasks job = LapiTasks.connected(n, LapiTasks.settings(program.mode())); Arena arena = Arena.ofShared()) {
            Task[] state = new Task[n];
            AtomicIntegerArray headers = new AtomicIntegerArray(n);
            for (int t = 0; t < n; t++) {
                Task s = new Task(job.get(t));
                s.puts = arena.allocate((long) n * MAX_OPS * SLOT, 8);
                s.messages = arena.allocate((long) n * MAX_OPS * SLOT, 8);
                s.source = arena.allocate(SLOT, 8);
                for (int i = 0; i < SLOT; i++) {
                    s.source.set(ValueLayout.JAVA_BYTE, i, datum(t, 99, i));
                }
                s.words = arena.allocate(8 * WORDS, 8);
                state[t] = s;
                int self = t;
                job.get(t).registerHandler(HANDLER, (origin, userHeader, length) -> {
                    headers.incrementAndGet(self);
                    int index = userHeader.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                    return Reception.into(s.messages.asSlice(((long) origin * MAX_OPS + index) * SLOT, length));
                });
            }
            LapiSemanticsTest.onEveryTask(job, t -> run(job.get(t), t, program, state, arena));
            check(program, state, headers);
        }
    }

    private static void run(LapiTask lapi, int t, Program program, Task[] state, Arena arena) {
        Task s = state[t];
        long[] puts = lapi.addressInit(s.puts);
        long[] sources = lapi.addressInit(s.source);
        long[] words = lapi.addressInit(s.words);
        long[] counters = lapi.addressInit(s.targetCounter);
        s.origin = lapi.newCounter();
        s.completion = lapi.newCounter();
        s.rmw = lapi.newCounter();
        List<Op> ops = program.perTask().get(t);
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            int target = op.target();
            switch (op.kind()) {
                case PUT -> lapi.put(target, puts[target] + ((long) t * MAX_OPS + i) * SLOT, data(arena, t, i, op.size()),
                        counters[target], s.origin, s.completion);
                case GET -> {
                    MemorySegment into = arena.allocate(Math.max(1, op.size()), 8).asSlice(0, op.size());
                    s.gets.add(into);
                    lapi.get(target, sources[target], into, counters[target], s.completion);
                }
                case AM -> lapi.amsend(target, HANDLER, MemorySegment.ofArray(new int[] {i}), data(arena, t, i, op.size()),
                        counters[target], s.origin, s.completion);
                case ADD -> {
                    MemorySegment previous = arena.allocate(8, 8);
                    s.previous.add(previous);
                    lapi.rmw(target, RmwOp.FETCH_AND_ADD, words[target] + 8L * op.word(), op.operand(), 0, previous, s.rmw);
                }
            }
        }
        long completions = ops.stream().filter(o -> o.kind() != Kind.ADD).count();
        lapi.waitcntr(s.completion, completions);
        lapi.waitcntr(s.rmw, program.count(t, Kind.ADD));
        lapi.gfence();
    }

    private static MemorySegment data(Arena arena, int origin, int index, int size) {
        MemorySegment data = arena.allocate(Math.max(1, size), 8).asSlice(0, size);
        for (int i = 0; i < size; i++) {
            data.set(ValueLayout.JAVA_BYTE, i, datum(origin, index, i));
        }
        return data;
    }

    private static void check(Program program, Task[] state, AtomicIntegerArray headers) {
        int n = program.tasks();
        long[][] sums = new long[n][WORDS];
        List<List<long[]>> seenByWord = new ArrayList<>(); // per (target, word): {previous, operand}
        for (int i = 0; i < n * WORDS; i++) {
            seenByWord.add(new ArrayList<>());
        }
        for (int origin = 0; origin < n; origin++) {
            Task s = state[origin];
            List<Op> ops = program.perTask().get(origin);
            int gets = 0;
            int adds = 0;
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                Task target = state[op.target()];
                long slot = ((long) origin * MAX_OPS + i) * SLOT;
                switch (op.kind()) {
                    case PUT -> expectData(target.puts.asSlice(slot, SLOT), origin, i, op.size(), "put " + i + " of " + origin);
                    case AM -> expectData(target.messages.asSlice(slot, SLOT), origin, i, op.size(), "message " + i + " of " + origin);
                    case GET -> assertThat(s.gets.get(gets++).mismatch(target.source.asSlice(0, op.size())))
                            .as("get %d of task %d", i, origin).isEqualTo(-1);
                    case ADD -> {
                        sums[op.target()][op.word()] += op.operand();
                        long previous = s.previous.get(adds++).get(ValueLayout.JAVA_LONG, 0);
                        seenByWord.get(op.target() * WORDS + op.word()).add(new long[] {previous, op.operand()});
                    }
                }
            }
            assertThat(s.origin.value()).as("origin counter of task %d", origin)
                    .isEqualTo(program.count(origin, Kind.PUT) + program.count(origin, Kind.AM));
            assertThat(s.completion.value()).as("completion counter of task %d after waitcntr took them all", origin)
                    .isZero();
        }
        for (int t = 0; t < n; t++) {
            assertThat(state[t].targetCounter.value()).as("target counter of task %d", t)
                    .isEqualTo(program.targeting(t, Kind.PUT) + program.targeting(t, Kind.AM)
                            + program.targeting(t, Kind.GET));
            assertThat(headers.get(t)).as("header handler runs at task %d", t).isEqualTo(program.targeting(t, Kind.AM));
            for (int w = 0; w < WORDS; w++) {
                assertThat(state[t].words.get(ValueLayout.JAVA_LONG, 8L * w)).as("word %d of task %d", w, t)
                        .isEqualTo(sums[t][w]);
                long[][] seen = seenByWord.get(t * WORDS + w).toArray(long[][]::new);
                Arrays.sort(seen, (x, y) -> Long.compare(x[0], y[0]));
                long expected = 0;
                for (long[] s : seen) { // sorted by the value each saw, each saw the sum of those before it
                    assertThat(s[0]).as("a fetch-and-add on word %d of task %d", w, t).isEqualTo(expected);
                    expected += s[1];
                }
            }
        }
    }

    private static void expectData(MemorySegment slot, int origin, int index, int size, String what) {
        for (int i = 0; i < SLOT; i++) {
            byte expected = i < size ? datum(origin, index, i) : 0;
            if (slot.get(ValueLayout.JAVA_BYTE, i) != expected) {
                throw new AssertionError(what + ": byte " + i + " is " + slot.get(ValueLayout.JAVA_BYTE, i)
                        + ", the model says " + expected);
            }
        }
    }
}
