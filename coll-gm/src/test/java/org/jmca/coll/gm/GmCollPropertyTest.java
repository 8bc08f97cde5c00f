package org.jmca.coll.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.btl.gm.EmulatedGmPort;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;

/**
 * coll/gm's collectives on the emulated GM NIC, each rank a thread with its own port and engine,
 * against a sequential reference: random collective, rank count, root, size (across the eager
 * limit and the pipeline blocks), memory kind, in place or not, algorithm and segment, window,
 * pipeline and forwarding; few buffers and tokens, so GM's flow control and coll/gm's own are
 * both exercised.
 */
class GmCollPropertyTest {
    private static final CollFunction[] FUNCTIONS = {CollFunction.BCAST, CollFunction.REDUCE, CollFunction.ALLREDUCE,
        CollFunction.BARRIER, CollFunction.GATHER, CollFunction.SCATTER, CollFunction.ALLGATHER, CollFunction.ALLTOALL};
    private static final EmulatedGmPort.Settings NIC = new EmulatedGmPort.Settings(64 * 1024, 1, 1, 0, 0);

    @Provide
    Arbitrary<String> bcastRules() {
        return Arbitraries.of("binomial", "binary", "nary", "pipeline", "chain", "split_binary_tree", "basic_linear")
                .flatMap(alg -> Arbitraries.of(0L, 1000L, 16_384L, 65_536L, 200_000L)
                        .map(segment -> "{ alg = " + alg + ", segment = " + segment + ", fanout = 3 }"));
    }

    @Property(tries = 150)
    void everyCollectiveGivesTheSequentialResult(
            @ForAll @IntRange(min = 2, max = 5) int ranks,
            @ForAll @IntRange(min = 0, max = 7) int functionIndex,
            @ForAll @IntRange(min = 0, max = 60_000) int count,
            @ForAll @IntRange(min = 0, max = 4) int rootSeed,
            @ForAll boolean inPlace,
            @ForAll boolean direct,
            @ForAll("bcastRules") String bcastRule,
            @ForAll @IntRange(min = 1, max = 8) int window,
            @ForAll boolean pipeline,
            @ForAll boolean forward) throws Exception {
        CollFunction function = FUNCTIONS[functionIndex];
        int root = rootSeed % ranks;
        int n = function == CollFunction.BCAST || function == CollFunction.REDUCE
                || function == CollFunction.ALLREDUCE ? count : count / ranks;
        Path fabric = Files.createTempDirectory("coll-gm");
        Path map = fabric.resolve("map.conf");
        Files.writeString(map, "bcast = [ " + bcastRule + " ]\n");
        GmSettings settings = new GmSettings(64 * 1024, window, pipeline ? 32 * 1024 : 0, forward, 3, 6, 3, 2,
                10_000_000_000L);
        SelectionMap selection = SelectionMap.load(map);
        ExecutorService threads = Executors.newFixedThreadPool(ranks);
        List<GmEngine> engines = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            int[] nodes = new int[ranks];
            int[] jobRanks = new int[ranks];
            for (int r = 0; r < ranks; r++) {
                nodes[r] = r + 1;
                jobRanks[r] = r;
            }
            List<Future<MemorySegment>> results = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
            for (int r = 0; r < ranks; r++) {
                engines.add(new GmEngine(new TestNic(fabric, r + 1, ranks, NIC.ringCapacity()), settings));
            }
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                GmCollModule module = new GmCollModule(engines.get(r), new Names(rank, ranks),
                        new GmComm("test communicator", rank, ranks, 7, nodes, jobRanks), selection);
                GmEngine engine = engines.get(r);
                results.add(threads.submit(() -> {
                    MemorySegment result = run(module, function, rank, ranks, root, n, inPlace, direct ? arena : null);
                    finished.incrementAndGet();
                    while (finished.get() < ranks) { // as the process's progress engine would, between calls
                        engine.progressBetweenCalls();
                        Thread.yield(); // more ranks than cores: let the others run
                    }
                    engine.close(); // all at once, as processes finalize: each lets its last sends leave
                    return result;
                }));
            }
            for (int r = 0; r < ranks; r++) {
                check(function, r, ranks, root, n, results.get(r).get(60, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
            engines.forEach(GmEngine::close);
            try (Stream<Path> files = Files.walk(fabric)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static int value(int r, int i) {
        return r * 1_000_003 + i * 7;
    }

    private static MemorySegment ints(int n, Arena arena) {
        return arena != null ? arena.allocate(4L * n, 8) : MemorySegment.ofArray(new int[n]);
    }

    /** One rank's part: builds its buffers, runs the call to completion, returns what it holds after. */
    private static MemorySegment run(GmCollModule module, CollFunction function, int rank, int size, int root, int n,
                                     boolean inPlace, Arena arena) {
        MemorySegment send = ints(switch (function) {
            case SCATTER, ALLTOALL -> n * size;
            default -> n;
        }, arena);
        for (int i = 0; i < send.byteSize() / 4; i++) {
            send.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
        }
        MemorySegment recv = ints(switch (function) {
            case GATHER, ALLGATHER, ALLTOALL -> n * size;
            default -> n;
        }, arena);
        MemorySegment sendArg = send;
        MemorySegment recvArg = recv;
        if (inPlace) {
            switch (function) {
                case REDUCE, ALLREDUCE -> {
                    if (function == CollFunction.ALLREDUCE || rank == root) {
                        recv.copyFrom(send);
                        sendArg = null;
                    }
                }
                case GATHER, ALLGATHER -> {
                    if (function == CollFunction.ALLGATHER || rank == root) {
                        recv.asSlice(4L * rank * n, 4L * n).copyFrom(send);
                        sendArg = null;
                    }
                }
                case SCATTER -> {
                    if (rank == root) {
                        recvArg = null;
                    }
                }
                default -> {
                }
            }
        }
        if (function == CollFunction.BCAST) {
            recvArg = rank == root ? send : recv;
            sendArg = null;
        }
        CollRequest request = module.start(function, CollCall.of(sendArg, recvArg, n, 4, root, IntSum.SUM, -1000));
        long deadline = System.nanoTime() + 50_000_000_000L;
        while (!request.test()) {
            Thread.yield();
            assertThat(System.nanoTime()).as("%s at rank %d finishes", function, rank).isLessThan(deadline);
        }
        MemorySegment result = function == CollFunction.BCAST ? recvArg
                : function == CollFunction.SCATTER && recvArg == null ? send.asSlice(4L * rank * n, 4L * n) : recv;
        return MemorySegment.ofArray(new int[(int) (result.byteSize() / 4)]).copyFrom(result);
    }

    private static void check(CollFunction function, int rank, int size, int root, int n, MemorySegment got) {
        switch (function) {
            case BCAST -> expect(got, n, i -> value(root, i), function, rank);
            case REDUCE, ALLREDUCE -> {
                if (function == CollFunction.ALLREDUCE || rank == root) {
                    expect(got, n, i -> {
                        int sum = 0;
                        for (int r = 0; r < size; r++) {
                            sum += value(r, i);
                        }
                        return sum;
                    }, function, rank);
                }
            }
            case GATHER, ALLGATHER -> {
                if (function == CollFunction.ALLGATHER || rank == root) {
                    expect(got, n * size, i -> value(i / Math.max(n, 1), i % Math.max(n, 1)), function, rank);
                }
            }
            case SCATTER -> expect(got, n, i -> value(root, rank * n + i), function, rank);
            case ALLTOALL -> expect(got, n * size, i -> value(i / Math.max(n, 1), rank * n + i % Math.max(n, 1)),
                    function, rank);
            default -> {
            }
        }
    }

    private static void expect(MemorySegment got, int n, java.util.function.IntUnaryOperator expected,
                               CollFunction function, int rank) {
        for (int i = 0; i < n; i++) {
            int value = got.getAtIndex(ValueLayout.JAVA_INT, i);
            if (value != expected.applyAsInt(i)) {
                assertThat(value).as("%s at rank %d, element %d", function, rank, i)
                        .isEqualTo(expected.applyAsInt(i));
            }
        }
    }
}
