package org.jmca.coll.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollTable;
import org.jmca.mca.coll.Reduction;

/**
 * coll/sm against a sequential reference: random sequences of calls (every function it serves,
 * roots, counts, in place or not, a commutative sum and a non-commutative 2x2 matrix product),
 * blocking one after the other or all started at once, on thread ranks and on processes' files,
 * with small slots so that some calls go to the module below.
 */
class SmCollPropertyTest {
    private static final byte SENTINEL = 0x55;

    /** The element types: an int summed, or a 2x2 int matrix multiplied (associative, not commutative). */
    enum Kind {
        SUM(4), MATRIX(16);

        final int bytes;

        Kind(int bytes) {
            this.bytes = bytes;
        }

        Reduction reduction() {
            return new Reduction() {
                @Override
                public boolean commutative() {
                    return Kind.this == SUM;
                }

                @Override
                public void apply(MemorySegment in, MemorySegment inout, int count) {
                    for (int i = 0; i < count; i++) {
                        int[] result = combine(read(in, i), read(inout, i));
                        write(inout, i, result);
                    }
                }
            };
        }

        int[] read(MemorySegment m, long element) {
            int[] v = new int[bytes / 4];
            for (int k = 0; k < v.length; k++) {
                v[k] = m.get(ValueLayout.JAVA_INT_UNALIGNED, element * bytes + 4L * k);
            }
            return v;
        }

        void write(MemorySegment m, long element, int[] v) {
            for (int k = 0; k < v.length; k++) {
                m.set(ValueLayout.JAVA_INT_UNALIGNED, element * bytes + 4L * k, v[k]);
            }
        }

        /** {@code lower op higher}. */
        int[] combine(int[] lower, int[] higher) {
            if (this == SUM) {
                return new int[] {lower[0] + higher[0]};
            }
            return new int[] {lower[0] * higher[0] + lower[1] * higher[2], lower[0] * higher[1] + lower[1] * higher[3],
                lower[2] * higher[0] + lower[3] * higher[2], lower[2] * higher[1] + lower[3] * higher[3]};
        }
    }

    record Step(CollFunction function, int root, int count, Kind kind, boolean inPlace) {
        Step withRoot(int size) {
            return new Step(function, root % size, count, kind, inPlace);
        }
    }

    private static final List<CollFunction> FUNCTIONS = List.copyOf(SmCollModule.FUNCTIONS);

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.of(FUNCTIONS), Arbitraries.integers().between(0, 7),
                Arbitraries.integers().between(0, 40), Arbitraries.of(Kind.class), Arbitraries.of(true, false))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(20); // more than the flag blocks, all in flight at once
    }

    @Property(tries = 60)
    void everyRankGetsTheReferenceResult(@ForAll @IntRange(min = 2, max = 5) int size,
                                         @ForAll("steps") List<Step> steps, @ForAll boolean blocking,
                                         @ForAll boolean processes, @ForAll @IntRange(min = 1, max = 4) int slotBlocks)
            throws Exception {
        check(size, 1, steps, blocking, processes, 128L * slotBlocks);
    }

    @Provide
    Arbitrary<List<Step>> twoLevelSteps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.of(List.copyOf(TwoLevelModule.FUNCTIONS)),
                Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 40), Arbitraries.of(Kind.class),
                Arbitraries.of(true, false)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(12);
    }

    /** Two levels: ranks on 2 or 3 hosts (some alone on theirs), leaders exchanging messages. */
    @Property(tries = 40)
    void twoLevelsGiveTheReferenceResult(@ForAll @IntRange(min = 3, max = 6) int size,
                                         @ForAll @IntRange(min = 2, max = 3) int hosts,
                                         @ForAll("twoLevelSteps") List<Step> steps, @ForAll boolean blocking,
                                         @ForAll boolean processes) throws Exception {
        check(size, hosts, steps, blocking, processes, 256);
    }

    private void check(int size, int hosts, List<Step> steps, boolean blocking, boolean processes, long slot)
            throws Exception {
        Path directory = processes ? Files.createTempDirectory("collsm") : null;
        SmTestJob job = new SmTestJob(size, directory, slot, hosts);
        List<AtomicInteger> entered = Stream.generate(AtomicInteger::new).limit(steps.size()).toList();
        job.run(rank -> {
            SmCollComponent component = job.component();
            CollTable table = job.table(rank, 7, component);
            List<Runnable> checks = new ArrayList<>();
            List<CollRequest> inFlight = new ArrayList<>();
            try (Arena arena = Arena.ofConfined()) {
                for (int s = 0; s < steps.size(); s++) {
                    Step step = steps.get(s);
                    Call call = new Call(step.withRoot(size), s, rank, size, arena);
                    if (step.function() == CollFunction.BARRIER && served(step, size, hosts, slot)) {
                        entered.get(s).incrementAndGet();
                        AtomicInteger count = entered.get(s);
                        checks.add(() -> assertThat(count.get()).as("ranks in barrier %d when it completes", call.index)
                                .isEqualTo(size));
                    }
                    CollRequest request = blocking ? table.module(step.function()).startBlocking(step.function(), call.call)
                            : table.module(step.function()).start(step.function(), call.call);
                    if (blocking) {
                        SmTestJob.await(request);
                    } else {
                        inFlight.add(request);
                    }
                    checks.add(() -> call.check(served(step.withRoot(size), size, hosts, slot)));
                }
                inFlight.forEach(SmTestJob::await);
                checks.forEach(Runnable::run);
            }
            table.modules().forEach(m -> m.free());
        });
        for (int r = 0; r < size; r++) {
            List<CollFunction> expected = steps.stream().filter(st -> !served(st.withRoot(size), size, hosts, slot))
                    .map(Step::function).toList();
            assertThat(job.passedDown.get(r)).as("calls rank %d passed down", r).containsExactlyElementsOf(expected);
        }
        if (directory != null) {
            try (Stream<Path> left = Files.list(directory)) {
                assertThat(left).as("files left in the session directory").isEmpty();
            }
            Files.delete(directory);
        }
    }

    private static boolean served(Step step, int size, int hosts, long slot) {
        long block = (long) step.count() * step.kind().bytes;
        if (hosts >= size) {
            return false; // every rank alone on its host: coll/sm declines the communicator
        }
        if (hosts > 1) {
            return block <= slot && !(step.function() == CollFunction.ALLREDUCE && step.kind() == Kind.MATRIX);
        }
        long bytes = switch (step.function()) {
            case BARRIER -> 0;
            case SCATTER, ALLTOALL, REDUCE_SCATTER_BLOCK -> block * size;
            default -> block;
        };
        return bytes <= slot;
    }

    /** One rank's buffers of one call, and the check of its result against the reference. */
    private static final class Call {
        final Step step;
        final int index;
        final int rank;
        final int size;
        final CollCall call;
        private final MemorySegment recv;
        private final long block;

        Call(Step step, int index, int rank, int size, Arena arena) {
            this.step = step;
            this.index = index;
            this.rank = rank;
            this.size = size;
            this.block = (long) step.count() * step.kind().bytes;
            boolean root = rank == step.root();
            boolean inPlace = step.inPlace() && inPlaceAllowed(root);
            MemorySegment send = null;
            MemorySegment recvBuffer = null;
            switch (step.function()) {
                case BARRIER -> { }
                case BCAST -> recvBuffer = root ? data(arena, rank, 0) : sentinel(arena, block);
                case GATHER -> {
                    send = data(arena, rank, 0);
                    if (root) {
                        recvBuffer = sentinel(arena, block * size);
                        if (inPlace) {
                            MemorySegment.copy(send, 0, recvBuffer, rank * block, block);
                            send = null;
                        }
                    }
                }
                case SCATTER -> {
                    if (root) {
                        send = blocks(arena, rank);
                    }
                    recvBuffer = root && inPlace ? null : sentinel(arena, block);
                }
                case ALLGATHER -> {
                    send = data(arena, rank, 0);
                    recvBuffer = sentinel(arena, block * size);
                    if (inPlace) {
                        MemorySegment.copy(send, 0, recvBuffer, rank * block, block);
                        send = null;
                    }
                }
                case ALLTOALL, REDUCE_SCATTER_BLOCK -> {
                    send = blocks(arena, rank);
                    recvBuffer = step.function() == CollFunction.ALLTOALL ? sentinel(arena, block * size)
                            : sentinel(arena, block);
                    if (inPlace) {
                        recvBuffer = send;
                        send = null;
                    }
                }
                default -> { // reduce, allreduce, scan, exscan
                    send = data(arena, rank, 0);
                    recvBuffer = step.function() != CollFunction.REDUCE || root ? sentinel(arena, block) : null;
                    if (inPlace) {
                        MemorySegment.copy(send, 0, recvBuffer, 0, block);
                        send = null;
                    }
                }
            }
            this.recv = recvBuffer;
            this.call = CollCall.of(send, recvBuffer, step.count(), step.kind().bytes, step.root(),
                    step.kind().reduction(), -1000 - index);
        }

        private boolean inPlaceAllowed(boolean root) {
            return switch (step.function()) {
                case BARRIER, BCAST -> false;
                case GATHER, SCATTER, REDUCE -> root;
                default -> true;
            };
        }

        /** Rank {@code from}'s block for rank {@code to} of this call. */
        private MemorySegment data(Arena arena, int from, int to) {
            MemorySegment m = arena.allocate(Math.max(block, 1));
            for (int i = 0; i < step.count(); i++) {
                step.kind().write(m, i, element(from, to, i));
            }
            return m.asSlice(0, block);
        }

        private int[] element(int from, int to, int i) {
            int[] v = new int[step.kind().bytes / 4];
            for (int k = 0; k < v.length; k++) {
                v[k] = Math.floorMod(from * 31 + to * 17 + index * 13 + i * 7 + k * 3, 7) - 3;
            }
            return v;
        }

        /** Rank {@code from}'s blocks for every rank, one after the other. */
        private MemorySegment blocks(Arena arena, int from) {
            MemorySegment m = arena.allocate(Math.max(block * size, 1)).asSlice(0, block * size);
            for (int to = 0; to < size; to++) {
                MemorySegment.copy(data(arena, from, to), 0, m, to * block, block);
            }
            return m;
        }

        private static MemorySegment sentinel(Arena arena, long bytes) {
            MemorySegment m = arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
            m.fill(SENTINEL);
            return m;
        }

        /** The reference: ranks {@code first..last} of blocks for {@code to}, combined in rank order. */
        private int[] fold(int first, int last, int to, int i) {
            int[] acc = element(first, to, i);
            for (int r = first + 1; r <= last; r++) {
                acc = step.kind().combine(acc, element(r, to, i));
            }
            return acc;
        }

        void check(boolean served) {
            if (!served || recv == null) {
                return;
            }
            int root = step.root();
            Arena arena = Arena.ofAuto();
            MemorySegment expected = switch (step.function()) {
                case BARRIER -> null;
                case BCAST -> data(arena, root, 0);
                case SCATTER -> data(arena, root, rank);
                case GATHER, ALLGATHER -> {
                    MemorySegment all = arena.allocate(Math.max(block * size, 1)).asSlice(0, block * size);
                    for (int r = 0; r < size; r++) {
                        MemorySegment.copy(data(arena, r, 0), 0, all, r * block, block);
                    }
                    yield all;
                }
                case ALLTOALL -> {
                    MemorySegment all = arena.allocate(Math.max(block * size, 1)).asSlice(0, block * size);
                    for (int r = 0; r < size; r++) {
                        MemorySegment.copy(data(arena, r, rank), 0, all, r * block, block);
                    }
                    yield all;
                }
                case EXSCAN -> rank == 0 ? null : folded(arena, rank - 1, 0);
                case SCAN -> folded(arena, rank, 0);
                case REDUCE_SCATTER_BLOCK -> folded(arena, size - 1, rank);
                default -> folded(arena, size - 1, 0); // reduce at the root, allreduce
            };
            if (step.function() == CollFunction.EXSCAN && rank == 0 && call.send() != null) {
                expected = sentinel(arena, block); // rank 0's result is undefined: it must stay untouched
            }
            if (expected != null) {
                assertThat(recv.asSlice(0, expected.byteSize()).toArray(ValueLayout.JAVA_BYTE))
                        .as("%s call %d rank %d of %d", step, index, rank, size)
                        .isEqualTo(expected.toArray(ValueLayout.JAVA_BYTE));
            }
        }

        private MemorySegment folded(Arena arena, int last, int to) {
            MemorySegment m = arena.allocate(Math.max(block, 1)).asSlice(0, block);
            for (int i = 0; i < step.count(); i++) {
                step.kind().write(m, i, fold(0, last, to, i));
            }
            return m;
        }
    }

    @Property(tries = 5)
    void aCallThatReusesAnEarlierTagGoesBelow(@ForAll @IntRange(min = 2, max = 3) int size) throws Exception {
        SmTestJob job = new SmTestJob(size, null, 1024);
        job.run(rank -> {
            CollTable table = job.table(rank, 3, job.component());
            CollCall first = CollCall.of(null, null, 0, 1, 0, null, -1000);
            SmTestJob.await(table.module(CollFunction.BARRIER).start(CollFunction.BARRIER, first));
            SmTestJob.await(table.module(CollFunction.BARRIER).start(CollFunction.BARRIER, first));
            table.modules().forEach(m -> m.free());
        });
        for (int r = 0; r < size; r++) {
            assertThat(job.passedDown.get(r)).containsExactly(CollFunction.BARRIER);
        }
    }
}
