package org.jmca.coll.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;

/**
 * One run of one algorithm on simulated ranks, checked against a sequential reference: the
 * result of every rank, and untouched bytes wherever a rank should not write.
 */
record Scenario(Algorithm algorithm, int size, int root, int count, TestOps ops, Tuning tuning, boolean inPlace) {
    private static final byte SENTINEL = 0x55;
    private static final int TAG = -1000;

    /** Whether the algorithm can serve this scenario at all (as tuned would decide). */
    boolean applicable() {
        if (algorithm.onlyTwoRanks() && size != 2) {
            return false;
        }
        return !(algorithm.needsCommutative() && !ops.commutative);
    }

    @Override
    public String toString() {
        return algorithm.function().id() + " " + algorithm + " size " + size + " root " + root + " count " + count
                + " " + ops + (inPlace ? " in place" : "") + " segment " + tuning.segmentSize();
    }

    private int es() {
        return ops.elementSize;
    }

    private MemorySegment data(int rank, int salt, int elements) {
        MemorySegment m = Schedule.scratch((long) elements * es());
        ops.fill(m, elements, rank, salt);
        return m;
    }

    private MemorySegment sentinel(long elements) {
        MemorySegment m = Schedule.scratch(elements * es());
        m.fill(SENTINEL);
        return m;
    }

    /** Per-rank counts of the vector variants: varied, zeros included. */
    int vcount(int rank) {
        return (count + rank * 3) % 5 + (count > 10 ? count : 0);
    }

    /** Displacements with a one-element gap before each block, which must stay untouched. */
    private static int[] gappedDispls(int[] counts) {
        int[] displs = new int[counts.length];
        int at = 0;
        for (int r = 0; r < counts.length; r++) {
            at += 1;
            displs[r] = at;
            at += counts[r];
        }
        return displs;
    }

    private static int span(int[] counts, int[] displs) {
        int end = 0;
        for (int r = 0; r < counts.length; r++) {
            end = Math.max(end, displs[r] + counts[r]);
        }
        return end + 1;
    }

    private MemorySegment fold(List<MemorySegment> operands, int from, int to, int elements) {
        Reduction op = ops.reduction();
        MemorySegment acc = copy(operands.get(from));
        for (int r = from + 1; r <= to; r++) {
            MemorySegment next = copy(operands.get(r));
            op.apply(acc, next, elements);
            acc = next;
        }
        return acc;
    }

    private static MemorySegment copy(MemorySegment m) {
        MemorySegment c = Schedule.scratch(m.byteSize());
        MemorySegment.copy(m, 0, c, 0, m.byteSize());
        return c;
    }

    private void expectSame(MemorySegment actual, MemorySegment expected, int rank, String what) {
        assertThat(actual.toArray(ValueLayout.JAVA_BYTE))
                .as("%s: rank %d %s", this, rank, what)
                .isEqualTo(expected.toArray(ValueLayout.JAVA_BYTE));
    }

    private void expectUntouched(MemorySegment m, int rank, String what) {
        byte[] bytes = m.toArray(ValueLayout.JAVA_BYTE);
        byte[] expected = new byte[bytes.length];
        Arrays.fill(expected, SENTINEL);
        assertThat(bytes).as("%s: rank %d %s must stay untouched", this, rank, what).isEqualTo(expected);
    }

    private MemorySegment slice(MemorySegment m, long firstElement, long elements) {
        return m.asSlice(firstElement * es(), elements * es());
    }

    /** Runs the scenario and checks every rank's result. */
    void check() {
        SimulatedNetwork network = new SimulatedNetwork(size);
        CollCall[] calls = new CollCall[size];
        List<MemorySegment> own = new ArrayList<>();
        MemorySegment[] out = new MemorySegment[size];
        CollFunction f = algorithm.function();
        int[] vc = new int[size];
        for (int r = 0; r < size; r++) {
            vc[r] = vcount(r);
        }
        int[] displs = gappedDispls(vc);
        int total = Arrays.stream(vc).sum();
        for (int r = 0; r < size; r++) {
            boolean isRoot = r == root;
            MemorySegment send = null;
            MemorySegment recv = null;
            int[] counts = null;
            int[] ds = null;
            int[] sendCounts = null;
            int[] sendDispls = null;
            int n = count;
            switch (f) {
                case BARRIER -> { }
                case BCAST -> recv = isRoot ? data(root, 0, count) : sentinel(count);
                case GATHER -> {
                    send = data(r, 0, count);
                    own.add(send);
                    if (isRoot) {
                        recv = sentinel((long) size * count);
                        if (inPlace) {
                            MemorySegment.copy(send, 0, recv, (long) r * count * es(), send.byteSize());
                            send = null;
                        }
                    }
                }
                case GATHERV -> {
                    n = vc[r];
                    send = data(r, 0, vc[r]);
                    own.add(send);
                    counts = vc;
                    ds = displs;
                    if (isRoot) {
                        recv = sentinel(span(vc, displs));
                        if (inPlace) {
                            MemorySegment.copy(send, 0, recv, (long) displs[r] * es(), send.byteSize());
                            send = null;
                        }
                    }
                }
                case SCATTER, SCATTERV -> {
                    boolean v = f == CollFunction.SCATTERV;
                    n = v ? vc[r] : count;
                    counts = v ? vc : null;
                    ds = v ? displs : null;
                    if (isRoot) {
                        send = v ? sentinel(span(vc, displs)) : sentinel((long) size * count);
                        for (int to = 0; to < size; to++) {
                            MemorySegment block = data(to, 1, v ? vc[to] : count);
                            MemorySegment.copy(block, 0, send, (long) (v ? displs[to] : to * count) * es(), block.byteSize());
                        }
                    }
                    recv = isRoot && inPlace ? null : sentinel(n);
                }
                case ALLGATHER, ALLGATHERV -> {
                    boolean v = f == CollFunction.ALLGATHERV;
                    n = v ? vc[r] : count;
                    counts = v ? vc : null;
                    ds = v ? displs : null;
                    send = data(r, 0, n);
                    own.add(send);
                    recv = v ? sentinel(span(vc, displs)) : sentinel((long) size * count);
                    if (inPlace) {
                        MemorySegment.copy(send, 0, recv, (long) (v ? displs[r] : r * count) * es(), send.byteSize());
                        send = null;
                    }
                }
                case ALLTOALL -> {
                    send = Schedule.scratch((long) size * count * es());
                    for (int to = 0; to < size; to++) {
                        MemorySegment.copy(data(r, to, count), 0, send, (long) to * count * es(), (long) count * es());
                    }
                    own.add(send);
                    recv = sentinel((long) size * count);
                    if (inPlace) {
                        MemorySegment.copy(send, 0, recv, 0, send.byteSize());
                        send = null;
                    }
                }
                case ALLTOALLV -> {
                    sendCounts = new int[size];
                    counts = new int[size];
                    for (int j = 0; j < size; j++) {
                        sendCounts[j] = pairCount(r, j);
                        counts[j] = pairCount(j, r);
                    }
                    sendDispls = gappedDispls(sendCounts);
                    ds = gappedDispls(counts);
                    send = sentinel(span(sendCounts, sendDispls));
                    for (int j = 0; j < size; j++) {
                        MemorySegment block = data(r, j, sendCounts[j]);
                        MemorySegment.copy(block, 0, send, (long) sendDispls[j] * es(), block.byteSize());
                    }
                    own.add(send);
                    recv = sentinel(span(counts, ds));
                    if (inPlace) {
                        // in place, send counts and displacements are the receive ones
                        sendCounts = counts;
                        sendDispls = ds;
                        recv = sentinel(span(counts, ds));
                        for (int j = 0; j < size; j++) {
                            MemorySegment block = data(r, j, counts[j]);
                            MemorySegment.copy(block, 0, recv, (long) ds[j] * es(), block.byteSize());
                        }
                        own.set(r, copy(recv));
                        send = null;
                    }
                }
                case REDUCE, ALLREDUCE, SCAN, EXSCAN -> {
                    send = data(r, 0, count);
                    own.add(send);
                    recv = f == CollFunction.REDUCE && !isRoot ? null : sentinel(count);
                    if (inPlace && recv != null) {
                        MemorySegment.copy(send, 0, recv, 0, send.byteSize());
                        send = null;
                    }
                }
                case REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> {
                    boolean v = f == CollFunction.REDUCE_SCATTER;
                    int whole = v ? total : size * count;
                    counts = v ? vc : null;
                    send = data(r, 0, whole);
                    own.add(send);
                    recv = sentinel(inPlace ? whole : v ? vc[r] : count);
                    if (inPlace) {
                        MemorySegment.copy(send, 0, recv, 0, send.byteSize());
                        send = null;
                    }
                }
            }
            out[r] = recv;
            calls[r] = new CollCall(send, recv, n, sendCounts, sendDispls, counts, ds, es(), root, ops.reduction(), TAG);
        }
        List<CollRequest> requests = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            Schedule schedule = new Schedule(network.rank(r), TAG);
            algorithm.steps().add(schedule, calls[r], tuning);
            requests.add(schedule.start());
        }
        network.runAll(requests);
        assertThat(network.unreceived()).as("%s: messages sent but never received", this).isZero();
        verify(f, out, own, vc, displs, total);
    }

    /** Elements rank {@code from} sends to rank {@code to}: symmetric in place, as MPI requires there. */
    private int pairCount(int from, int to) {
        int varying = inPlace ? (from + to + count) % 4 : (from + 2 * to + count) % 4;
        return varying + (count > 10 ? count : 0);
    }

    private void verify(CollFunction f, MemorySegment[] out, List<MemorySegment> own, int[] vc, int[] displs, int total) {
        for (int r = 0; r < size; r++) {
            MemorySegment got = out[r];
            boolean isRoot = r == root;
            switch (f) {
                case BARRIER -> { }
                case BCAST -> expectSame(got, data(root, 0, count), r, "buffer");
                case GATHER -> {
                    if (isRoot) {
                        for (int from = 0; from < size; from++) {
                            expectSame(slice(got, (long) from * count, count), own.get(from), r, "block " + from);
                        }
                    }
                }
                case GATHERV -> {
                    if (isRoot) {
                        for (int from = 0; from < size; from++) {
                            expectSame(slice(got, displs[from], vc[from]), own.get(from), r, "block " + from);
                            expectUntouched(slice(got, displs[from] - 1, 1), r, "the gap before block " + from);
                        }
                    }
                }
                case SCATTER, SCATTERV -> {
                    if (got != null) {
                        int n = f == CollFunction.SCATTERV ? vc[r] : count;
                        expectSame(got, data(r, 1, n), r, "block");
                    }
                }
                case ALLGATHER -> {
                    for (int from = 0; from < size; from++) {
                        expectSame(slice(got, (long) from * count, count), own.get(from), r, "block " + from);
                    }
                }
                case ALLGATHERV -> {
                    for (int from = 0; from < size; from++) {
                        expectSame(slice(got, displs[from], vc[from]), own.get(from), r, "block " + from);
                        expectUntouched(slice(got, displs[from] - 1, 1), r, "the gap before block " + from);
                    }
                }
                case ALLTOALL -> {
                    for (int from = 0; from < size; from++) {
                        expectSame(slice(got, (long) from * count, count), data(from, r, count), r, "block from " + from);
                    }
                }
                case ALLTOALLV -> {
                    int[] counts = new int[size];
                    for (int j = 0; j < size; j++) {
                        counts[j] = pairCount(j, r);
                    }
                    int[] ds = gappedDispls(counts);
                    for (int from = 0; from < size; from++) {
                        expectSame(slice(got, ds[from], counts[from]), data(from, r, counts[from]), r,
                                "block from " + from);
                        expectUntouched(slice(got, ds[from] - 1, 1), r, "the gap before block " + from);
                    }
                }
                case REDUCE -> {
                    if (isRoot) {
                        expectSame(got, fold(own, 0, size - 1, count), r, "result");
                    }
                }
                case ALLREDUCE -> expectSame(got, fold(own, 0, size - 1, count), r, "result");
                case SCAN -> expectSame(got, fold(own, 0, r, count), r, "prefix");
                case EXSCAN -> {
                    if (r == 0 && inPlace) {
                        expectSame(got, own.get(0), r, "rank 0's exscan buffer (untouched)");
                    } else if (r == 0) {
                        expectUntouched(got, r, "rank 0's exscan buffer");
                    } else {
                        expectSame(got, fold(own, 0, r - 1, count), r, "prefix");
                    }
                }
                case REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> {
                    boolean v = f == CollFunction.REDUCE_SCATTER;
                    int whole = v ? total : size * count;
                    int first = v ? displsOf(vc)[r] : r * count;
                    int n = v ? vc[r] : count;
                    MemorySegment all = fold(own, 0, size - 1, whole);
                    expectSame(slice(got, 0, n), slice(all, first, n), r, "block");
                }
            }
        }
    }

    private static int[] displsOf(int[] counts) {
        int[] d = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            d[i] = d[i - 1] + counts[i - 1];
        }
        return d;
    }
}
