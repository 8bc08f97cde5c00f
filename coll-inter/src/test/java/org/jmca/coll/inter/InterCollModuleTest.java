package org.jmca.coll.inter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmca.mca.coll.CollFunction.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.contract.TestCommunicator;
import org.junit.jupiter.api.Test;

/**
 * coll/inter against MPI's definitions of the collectives between two groups, computed here
 * sequentially from the job ranks: every function, groups of 1 to 4 ranks each, roots in either
 * group, counts from 0, a commutative reduction (sum) and a non-commutative one (the first
 * operand), whose result shows the remote operands are folded in rank order.
 */
class InterCollModuleTest {
    private static final int TAG = -1000;
    private static final int INT = 4;

    /** A sum of ints; and "the first operand", which keeps the lowest remote rank's value. */
    private static final Reduction SUM = reduction(true, Integer::sum);
    private static final Reduction FIRST = reduction(false, (in, inout) -> in);

    private interface IntOp {
        int apply(int in, int inout);
    }

    private static Reduction reduction(boolean commutative, IntOp op) {
        return new Reduction() {
            @Override
            public boolean commutative() {
                return commutative;
            }

            @Override
            public void apply(MemorySegment in, MemorySegment inout, int count) {
                for (int i = 0; i < count; i++) {
                    inout.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, op.apply(
                            in.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i),
                            inout.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i)));
                }
            }
        };
    }

    @Test
    void declinesIntracommunicatorsAndServesEveryFunctionMpiDefinesBetweenGroups() {
        InterCollComponent component = new InterCollComponent();
        CollCommunicator intra = TestCommunicator.of("intra", 2, java.util.Map.of());
        assertThat(component.servesIntercommunicators()).isTrue();
        assertThat(component.query(intra).accepted()).isFalse();
        assertThat(component.query(intra).reason()).isEqualTo("intercommunicators only");
        assertThat(component.query(new TwoGroups(1, 2).rank(0)).module().provides())
                .containsExactlyInAnyOrder(Arrays.stream(CollFunction.values())
                        .filter(CollFunction::betweenGroups).toArray(CollFunction[]::new))
                .doesNotContain(SCAN, EXSCAN);
    }

    // ---- the data ------------------------------------------------------------------------------

    private static MemorySegment ints(int n, IntUnaryOperator value) {
        MemorySegment segment = MemorySegment.ofArray(new int[n]);
        for (int i = 0; i < n; i++) {
            segment.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, value.applyAsInt(i));
        }
        return segment;
    }

    private static int[] read(MemorySegment segment) {
        return segment.toArray(ValueLayout.JAVA_INT);
    }

    private static int[] expected(int n, IntUnaryOperator value) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = value.applyAsInt(i);
        }
        return values;
    }

    /** Element i of job rank {@code job}'s operand or block. */
    private static int value(int job, int i) {
        return job * 1000 + i;
    }

    /** Element i of the block job rank {@code from} sends job rank {@code to}. */
    private static int value(int from, int to, int i) {
        return from * 1000 + to * 50 + i;
    }

    /** Displacements of {@code counts} one after another, with a gap of one element between blocks. */
    private static int[] displacements(int[] counts) {
        int[] displs = new int[counts.length];
        for (int r = 1; r < counts.length; r++) {
            displs[r] = displs[r - 1] + counts[r - 1] + 1;
        }
        return displs;
    }

    private static int span(int[] counts, int[] displs) {
        return counts.length == 0 ? 0 : displs[counts.length - 1] + counts[counts.length - 1];
    }

    /** Runs {@code function} with each job rank's call; returns the calls, to read their buffers. */
    private static List<CollCall> run(TwoGroups groups, CollFunction function, IntFunction<CollCall> callOf) {
        List<CollCall> calls = new ArrayList<>();
        List<CollRequest> requests = new ArrayList<>();
        for (int job = 0; job < groups.jobSize(); job++) {
            CollModule module = new InterCollComponent().query(groups.rank(job)).module();
            CollCall call = callOf.apply(job);
            calls.add(call);
            requests.add(module.start(function, call));
        }
        groups.runAll(requests);
        return calls;
    }

    private static CollCall call(MemorySegment send, MemorySegment recv, int count, int root, Reduction op) {
        return CollCall.of(send, recv, count, INT, root, op, TAG);
    }

    // ---- rooted functions -----------------------------------------------------------------------

    /** The root argument of job rank {@code job}: MPI.ROOT, MPI.PROC_NULL, or the root's rank in its group. */
    private static int root(TwoGroups groups, int job, int rootGroup, int rootRank) {
        if (groups.group(job) != rootGroup) {
            return rootRank;
        }
        return groups.local(job) == rootRank ? CollCall.ROOT : CollCall.PROC_NULL;
    }

    @Property(tries = 40)
    void rootedFunctions(@ForAll @IntRange(min = 1, max = 4) int a, @ForAll @IntRange(min = 1, max = 4) int b,
                         @ForAll @IntRange(min = 0, max = 5) int count, @ForAll @IntRange(max = 1) int rootGroup,
                         @ForAll @IntRange(max = 3) int pick) {
        int[] sizes = {a, b};
        int rootRank = pick % sizes[rootGroup];
        int rootJob = new TwoGroups(a, b).job(rootGroup, rootRank);
        int others = sizes[1 - rootGroup];
        int[] counts = expected(others, r -> count + r % 2);
        int[] displs = displacements(counts);

        TwoGroups bcast = new TwoGroups(a, b);
        List<CollCall> calls = run(bcast, BCAST, job -> {
            int root = root(bcast, job, rootGroup, rootRank);
            return call(null, root == CollCall.PROC_NULL ? null
                    : ints(count, i -> root == CollCall.ROOT ? value(job, i) : -1), count, root, null);
        });
        eachOfTheOtherGroup(bcast, rootGroup, job -> assertThat(read(calls.get(job).recv())).as("bcast at %d", job)
                .containsExactly(expected(count, i -> value(rootJob, i))));

        TwoGroups gather = new TwoGroups(a, b);
        List<CollCall> gathered = run(gather, GATHER, job -> {
            int root = root(gather, job, rootGroup, rootRank);
            return root == CollCall.ROOT ? call(null, ints(others * count, i -> -1), count, root, null)
                    : root == CollCall.PROC_NULL ? call(null, null, 0, root, null)
                    : call(ints(count, i -> value(job, i)), null, count, root, null);
        });
        assertThat(read(gathered.get(rootJob).recv())).as("gather at the root")
                .containsExactly(expected(others * count, i -> value(gather.job(1 - rootGroup, i / count(count)),
                        i % count(count))));

        TwoGroups gatherv = new TwoGroups(a, b);
        List<CollCall> gatheredv = run(gatherv, GATHERV, job -> {
            int root = root(gatherv, job, rootGroup, rootRank);
            int mine = gatherv.group(job) != rootGroup ? counts[gatherv.local(job)] : 0;
            return root == CollCall.ROOT
                    ? new CollCall(null, ints(span(counts, displs), i -> -1), 0, null, null, counts, displs, INT, root,
                            null, TAG)
                    : call(root == CollCall.PROC_NULL ? null : ints(mine, i -> value(job, i)), null, mine, root, null);
        });
        int[] atRoot = read(gatheredv.get(rootJob).recv());
        for (int r = 0; r < others; r++) {
            int from = gatherv.job(1 - rootGroup, r);
            assertThat(Arrays.copyOfRange(atRoot, displs[r], displs[r] + counts[r]))
                    .as("gatherv block %d", r).containsExactly(expected(counts[r], i -> value(from, i)));
        }

        TwoGroups scatter = new TwoGroups(a, b);
        List<CollCall> scattered = run(scatter, SCATTER, job -> {
            int root = root(scatter, job, rootGroup, rootRank);
            return root == CollCall.ROOT
                    ? call(ints(others * count, i -> value(job, scatter.job(1 - rootGroup, i / count(count)),
                            i % count(count))), null, count, root, null)
                    : call(null, root == CollCall.PROC_NULL ? null : ints(count, i -> -1), count, root, null);
        });
        eachOfTheOtherGroup(scatter, rootGroup, job -> assertThat(read(scattered.get(job).recv()))
                .as("scatter at %d", job).containsExactly(expected(count, i -> value(rootJob, job, i))));

        TwoGroups scatterv = new TwoGroups(a, b);
        List<CollCall> scatteredv = run(scatterv, SCATTERV, job -> {
            int root = root(scatterv, job, rootGroup, rootRank);
            if (root == CollCall.ROOT) {
                int[] send = new int[span(counts, displs)];
                for (int r = 0; r < others; r++) {
                    for (int i = 0; i < counts[r]; i++) {
                        send[displs[r] + i] = value(job, scatterv.job(1 - rootGroup, r), i);
                    }
                }
                return new CollCall(MemorySegment.ofArray(send), null, 0, null, null, counts, displs, INT, root, null,
                        TAG);
            }
            int mine = scatterv.group(job) != rootGroup ? counts[scatterv.local(job)] : 0;
            return call(null, root == CollCall.PROC_NULL ? null : ints(mine, i -> -1), mine, root, null);
        });
        eachOfTheOtherGroup(scatterv, rootGroup, job -> assertThat(read(scatteredv.get(job).recv()))
                .as("scatterv at %d", job)
                .containsExactly(expected(counts[scatterv.local(job)], i -> value(rootJob, job, i))));

        for (Reduction op : List.of(SUM, FIRST)) {
            TwoGroups reduce = new TwoGroups(a, b);
            List<CollCall> reduced = run(reduce, REDUCE, job -> {
                int root = root(reduce, job, rootGroup, rootRank);
                return root == CollCall.ROOT ? call(null, ints(count, i -> -1), count, root, op)
                        : call(root == CollCall.PROC_NULL ? null : ints(count, i -> value(job, i)), null, count, root,
                                op);
            });
            assertThat(read(reduced.get(rootJob).recv())).as("reduce at the root")
                    .containsExactly(expected(count, i -> fold(reduce, 1 - rootGroup, op, job -> value(job, i))));
        }
    }

    /** {@code count}, or 1 for 0 (a divisor where there are no elements to compute anyway). */
    private static int count(int count) {
        return Math.max(count, 1);
    }

    private static void eachOfTheOtherGroup(TwoGroups groups, int rootGroup, IntConsumer check) {
        for (int job = 0; job < groups.jobSize(); job++) {
            if (groups.group(job) != rootGroup) {
                check.accept(job);
            }
        }
    }

    /** The reduction over group {@code group}'s ranks in rank order of their {@code operand}s. */
    private static int fold(TwoGroups groups, int group, Reduction op, IntUnaryOperator operand) {
        int result = operand.applyAsInt(groups.job(group, 0));
        for (int r = 1; r < groups.sizes[group]; r++) {
            int next = operand.applyAsInt(groups.job(group, r));
            result = op == SUM ? result + next : result;
        }
        return result;
    }

    // ---- the functions without a root ------------------------------------------------------------

    @Property(tries = 40)
    void exchangesBetweenTheGroups(@ForAll @IntRange(min = 1, max = 4) int a,
                                   @ForAll @IntRange(min = 1, max = 4) int b,
                                   @ForAll @IntRange(min = 0, max = 5) int count) {
        TwoGroups shape = new TwoGroups(a, b);
        IntUnaryOperator remote = job -> shape.sizes[1 - shape.group(job)];

        run(new TwoGroups(a, b), BARRIER, job -> call(null, null, 0, 0, null));

        TwoGroups allgather = new TwoGroups(a, b);
        List<CollCall> gathered = run(allgather, ALLGATHER, job -> call(ints(count, i -> value(job, i)),
                ints(remote.applyAsInt(job) * count, i -> -1), count, 0, null));
        for (int job = 0; job < shape.jobSize(); job++) {
            int other = 1 - shape.group(job);
            assertThat(read(gathered.get(job).recv())).as("allgather at %d", job).containsExactly(expected(
                    remote.applyAsInt(job) * count, i -> value(shape.job(other, i / count(count)), i % count(count))));
        }

        // allgatherv: rank r of either group sends count + r elements
        TwoGroups allgatherv = new TwoGroups(a, b);
        List<CollCall> gatheredv = run(allgatherv, ALLGATHERV, job -> {
            int[] counts = expected(remote.applyAsInt(job), r -> count + r);
            int[] displs = displacements(counts);
            int mine = count + allgatherv.local(job);
            return new CollCall(ints(mine, i -> value(job, i)), ints(span(counts, displs), i -> -1), mine, null, null,
                    counts, displs, INT, 0, null, TAG);
        });
        for (int job = 0; job < shape.jobSize(); job++) {
            int[] counts = gatheredv.get(job).counts();
            int[] got = read(gatheredv.get(job).recv());
            for (int r = 0; r < counts.length; r++) {
                int from = shape.job(1 - shape.group(job), r);
                assertThat(Arrays.copyOfRange(got, gatheredv.get(job).displs()[r],
                        gatheredv.get(job).displs()[r] + counts[r])).as("allgatherv at %d from %d", job, r)
                        .containsExactly(expected(counts[r], i -> value(from, i)));
            }
        }

        TwoGroups alltoall = new TwoGroups(a, b);
        List<CollCall> exchanged = run(alltoall, ALLTOALL, job -> {
            int other = 1 - alltoall.group(job);
            return call(ints(remote.applyAsInt(job) * count, i -> value(job, alltoall.job(other, i / count(count)),
                    i % count(count))), ints(remote.applyAsInt(job) * count, i -> -1), count, 0, null);
        });
        for (int job = 0; job < shape.jobSize(); job++) {
            int other = 1 - shape.group(job);
            int me = job;
            assertThat(read(exchanged.get(job).recv())).as("alltoall at %d", job).containsExactly(expected(
                    remote.applyAsInt(job) * count, i -> value(shape.job(other, i / count(count)), me,
                            i % count(count))));
        }

        // alltoallv: from job rank f to job rank t go (f + 2t) % 3 + count elements
        TwoGroups alltoallv = new TwoGroups(a, b);
        List<CollCall> exchangedv = run(alltoallv, ALLTOALLV, job -> {
            int other = 1 - alltoallv.group(job);
            int n = remote.applyAsInt(job);
            int[] sendCounts = expected(n, r -> (job + 2 * alltoallv.job(other, r)) % 3 + count);
            int[] sendDispls = displacements(sendCounts);
            int[] counts = expected(n, r -> (alltoallv.job(other, r) + 2 * job) % 3 + count);
            int[] displs = displacements(counts);
            int[] send = new int[span(sendCounts, sendDispls)];
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < sendCounts[r]; i++) {
                    send[sendDispls[r] + i] = value(job, alltoallv.job(other, r), i);
                }
            }
            return new CollCall(MemorySegment.ofArray(send), ints(span(counts, displs), i -> -1), 0, sendCounts,
                    sendDispls, counts, displs, INT, 0, null, TAG);
        });
        for (int job = 0; job < shape.jobSize(); job++) {
            CollCall c = exchangedv.get(job);
            int[] got = read(c.recv());
            for (int r = 0; r < c.counts().length; r++) {
                int from = shape.job(1 - shape.group(job), r);
                int me = job;
                assertThat(Arrays.copyOfRange(got, c.displs()[r], c.displs()[r] + c.counts()[r]))
                        .as("alltoallv at %d from %d", job, r).containsExactly(expected(c.counts()[r],
                                i -> value(from, me, i)));
            }
        }
    }

    @Property(tries = 40)
    void reductionsBetweenTheGroups(@ForAll @IntRange(min = 1, max = 4) int a,
                                    @ForAll @IntRange(min = 1, max = 4) int b,
                                    @ForAll @IntRange(min = 0, max = 5) int count) {
        TwoGroups shape = new TwoGroups(a, b);
        for (Reduction op : List.of(SUM, FIRST)) {
            TwoGroups allreduce = new TwoGroups(a, b);
            List<CollCall> reduced = run(allreduce, ALLREDUCE, job -> call(ints(count, i -> value(job, i)),
                    ints(count, i -> -1), count, 0, op));
            for (int job = 0; job < shape.jobSize(); job++) {
                int other = 1 - shape.group(job);
                assertThat(read(reduced.get(job).recv())).as("allreduce at %d", job)
                        .containsExactly(expected(count, i -> fold(shape, other, op, j -> value(j, i))));
            }

            // reduce_scatter: vectors of a total both groups share, spread unevenly over each group's ranks
            int total = 3 * count + 1;
            TwoGroups reduceScatter = new TwoGroups(a, b);
            List<CollCall> scattered = run(reduceScatter, REDUCE_SCATTER, job -> {
                int size = reduceScatter.sizes[reduceScatter.group(job)];
                int[] counts = expected(size, r -> total / size + (r < total % size ? 1 : 0));
                int mine = counts[reduceScatter.local(job)];
                return new CollCall(ints(total, i -> value(job, i)), ints(mine, i -> -1), mine, null, null, counts,
                        null, INT, 0, op, TAG);
            });
            for (int job = 0; job < shape.jobSize(); job++) {
                int other = 1 - shape.group(job);
                int before = 0;
                for (int r = 0; r < shape.local(job); r++) {
                    before += scattered.get(job).counts()[r];
                }
                int offset = before;
                assertThat(read(scattered.get(job).recv())).as("reduce_scatter at %d", job).containsExactly(
                        expected(scattered.get(job).count(), i -> fold(shape, other, op, j -> value(j, offset + i))));
            }

            // reduce_scatter_block: each group's count is such that both groups' vectors are count * a * b
            TwoGroups block = new TwoGroups(a, b);
            List<CollCall> blocks = run(block, REDUCE_SCATTER_BLOCK, job -> {
                int mine = count * block.sizes[1 - block.group(job)];
                return call(ints(count * a * b, i -> value(job, i)), ints(mine, i -> -1), mine, 0, op);
            });
            for (int job = 0; job < shape.jobSize(); job++) {
                int other = 1 - shape.group(job);
                int offset = shape.local(job) * blocks.get(job).count();
                assertThat(read(blocks.get(job).recv())).as("reduce_scatter_block at %d", job).containsExactly(
                        expected(blocks.get(job).count(), i -> fold(shape, other, op, j -> value(j, offset + i))));
            }
        }
    }
}
