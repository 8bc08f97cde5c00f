package org.jmca.tests.programs;

import static org.jmca.tests.programs.ContractValues.SENTINEL;
import static org.jmca.tests.programs.ContractValues.cell;
import static org.jmca.tests.programs.ContractValues.value;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmca.tests.programs.ContractValues.Operation;
import org.jmca.tests.programs.ContractValues.Vec;

/**
 * The collective contract every coll component passes: each collective of the mpi API on an
 * intracommunicator (barrier, bcast, reduce, allReduce, gather(v), scatter(v), allGather(v),
 * allToAll(v), reduceScatter(Block), scan, exScan), blocking and non-blocking, in place where MPI
 * defines it; at counts 1 (where the v-collectives give rank 1 an empty block), 7 and a large one
 * (past eager limits, segments and coll/sm's slot); from root 0, the last rank and a middle one;
 * with SUM, MAX, MIN and PROD on ints and doubles (values that make every order of combining exact)
 * and a non-commutative user operation. Each result is checked element by element against the
 * sequential result this rank computes from every rank's deterministic data, with the gaps of the
 * v-collectives and one element past every receive buffer left untouched.
 *
 * <p>Blocking calls use Java arrays, non-blocking ones direct buffers. At the small counts the
 * rooted data movers run from every root in every form and each reduction runs every operation;
 * at the large count each collective runs once, in a form, from a root and with an operation that
 * turn from one collective to the next. Each count ends with five non-blocking calls in flight
 * together.
 *
 * <p>Prints {@code FAIL <collective> <form> count=<n> root=<r> op=<op> on rank <r>: element <i>
 * expected <x> got <y>} for each wrong result, then {@code PASS <checks> checks on rank <r>}, or
 * {@code FAILED <failures> of <checks> checks on rank <r>} and exits with status 1. Args: [large
 * count] (default 70000).
 */
public final class CollectiveContract {
    /** How a collective is called: blocking or not, in place or not. */
    enum Form {
        BLOCKING("blocking", false, false),
        IN_PLACE("in-place", false, true),
        NONBLOCKING("non-blocking", true, false),
        NONBLOCKING_IN_PLACE("non-blocking-in-place", true, true);

        final String id;
        final boolean nonBlocking;
        final boolean inPlace;

        Form(String id, boolean nonBlocking, boolean inPlace) {
            this.id = id;
            this.nonBlocking = nonBlocking;
            this.inPlace = inPlace;
        }
    }

    /** The collectives of an intracommunicator, as coll components name them. */
    enum Collective {
        BCAST(true, false, false), GATHER(true, true, false), GATHERV(true, true, false),
        SCATTER(true, true, false), SCATTERV(true, true, false), ALLGATHER(false, true, false),
        ALLGATHERV(false, true, false), ALLTOALL(false, false, false), ALLTOALLV(false, false, false),
        REDUCE(true, true, true), ALLREDUCE(false, true, true), REDUCE_SCATTER(false, true, true),
        REDUCE_SCATTER_BLOCK(false, true, true), SCAN(false, true, true), EXSCAN(false, true, true);

        final boolean rooted;
        /** Whether MPI (and the mpi API) has an in-place form: not for bcast and alltoall(v). */
        final boolean inPlace;
        final boolean reduction;

        Collective(boolean rooted, boolean inPlace, boolean reduction) {
            this.rooted = rooted;
            this.inPlace = inPlace;
            this.reduction = reduction;
        }

        List<Form> forms() {
            return inPlace ? List.of(Form.values()) : List.of(Form.BLOCKING, Form.NONBLOCKING);
        }
    }

    /** What one call was, for its failure line. */
    private record Call(String collective, Form form, int count, int root, Operation op) {
        @Override
        public String toString() {
            return collective + " " + form.id + " count=" + count + " root=" + (root < 0 ? "-" : root) + " op="
                    + (op == null ? "-" : op.name());
        }
    }

    /** A started call: its request (null once a blocking call returned) and the check of its result. */
    private record Started(Request request, Runnable check) {
    }

    private interface Blocking {
        void call() throws MPIException;
    }

    private interface NonBlocking {
        Request start() throws MPIException;
    }

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final int[] roots;
    private long checks;
    private long failures;

    private CollectiveContract(Intracomm comm) throws MPIException {
        this.comm = comm;
        this.rank = comm.getRank();
        this.size = comm.getSize();
        this.roots = new LinkedHashSet<>(List.of(0, size - 1, size / 2)).stream().mapToInt(Integer::intValue).toArray();
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 70_000;
        CollectiveContract contract = new CollectiveContract(MPI.COMM_WORLD);
        int[] counts = {1, 7, large};
        for (int i = 0; i < counts.length; i++) {
            contract.round(counts[i], i, i == 2);
        }
        long failures = contract.failures;
        long checks = contract.checks;
        int rank = contract.rank;
        MPI.Finalize();
        if (failures > 0) {
            System.out.println("FAILED " + failures + " of " + checks + " checks on rank " + rank);
            System.exit(1);
        }
        System.out.println("PASS " + checks + " checks on rank " + rank);
    }

    /**
     * Every collective at count {@code n}, the {@code index}-th count. At a small count, the rooted
     * data movers run from every root in every form, and each reduction runs every operation, in a
     * form that turns with the operation, the collective and the count. At the large count each
     * collective runs once, its form, root and operation turning with the collective.
     */
    private void round(int n, int index, boolean large) throws MPIException, InterruptedException {
        barrier(Form.BLOCKING);
        barrier(Form.NONBLOCKING);
        Operation[] ops = Operation.values();
        for (Collective c : Collective.values()) {
            List<Form> forms = c.forms();
            if (large) {
                int k = c.ordinal() + index;
                finish(start(c, n, roots[k % roots.length], ops[k % ops.length], forms.get(k % forms.size())));
                continue;
            }
            for (Form form : forms) {
                if (c.reduction) {
                    for (Operation op : ops) {
                        if ((op.ordinal() + c.ordinal() + index) % forms.size() == forms.indexOf(form)) {
                            finish(start(c, n, roots[(op.ordinal() + index) % roots.length], op, form));
                        }
                    }
                } else {
                    for (int root : c.rooted ? roots : new int[] {0}) {
                        finish(start(c, n, root, null, form));
                    }
                }
            }
        }
        inFlightTogether(n);
    }

    private Started start(Collective c, int n, int root, Operation op, Form form) throws MPIException {
        return switch (c) {
            case BCAST -> bcast(n, root, form);
            case GATHER -> gather(n, root, form);
            case GATHERV -> gatherv(n, root, form);
            case SCATTER -> scatter(n, root, form);
            case SCATTERV -> scatterv(n, root, form);
            case ALLGATHER -> allGather(n, form);
            case ALLGATHERV -> allGatherv(n, form);
            case ALLTOALL -> allToAll(n, form);
            case ALLTOALLV -> allToAllv(n, form);
            case REDUCE -> reduce(n, root, op, form);
            case ALLREDUCE -> allReduce(n, op, form);
            case REDUCE_SCATTER -> reduceScatter(n, op, form);
            case REDUCE_SCATTER_BLOCK -> reduceScatterBlock(n, op, form);
            case SCAN -> scan(n, op, form, false);
            case EXSCAN -> scan(n, op, form, true);
        };
    }

    private void finish(Started started) throws MPIException {
        if (started.request() != null) {
            started.request().waitFor();
        }
        started.check().run();
    }

    /** Five non-blocking calls started before any is waited for. */
    private void inFlightTogether(int n) throws MPIException {
        Form form = Form.NONBLOCKING;
        List<Started> calls = new ArrayList<>(List.of(bcast(n, size - 1, form),
                allReduce(n, Operation.AFFINE, form), allGather(n, form), reduce(n, size / 2, Operation.INT_SUM, form),
                scan(n, Operation.DOUBLE_MAX, form, false)));
        Request.waitAll(calls.stream().map(Started::request).toArray(Request[]::new));
        calls.forEach(c -> c.check().run());
    }

    private static Request start(Form form, NonBlocking nonBlocking, Blocking blocking) throws MPIException {
        if (form.nonBlocking) {
            return nonBlocking.start();
        }
        blocking.call();
        return null;
    }

    // ---- buffers, counts and checks ---------------------------------------------------------------

    /** A receive buffer of ints, one guard element past {@code length}, all SENTINEL. */
    private static Vec received(int length, Form form) {
        return new Vec(false, length + 1, form.nonBlocking).fill(0, length + 1, i -> SENTINEL);
    }

    private static Vec ints(int length, Form form, IntToDoubleFunction value) {
        return new Vec(false, length, form.nonBlocking).fill(0, length, value);
    }

    /** The v-collectives' block of rank {@code r}: empty for rank 1 at count 1. */
    private int vcount(int n, int r) {
        return n == 1 && r == 1 ? 0 : n + r % 3;
    }

    /** The alltoallv block from {@code from} to {@code to}. */
    private static int pairCount(int n, int from, int to) {
        return n == 1 && (from + to) % 3 == 1 ? 0 : n + (from + 2 * to) % 3;
    }

    /** Displacements with a gap of one element before every block. */
    private static int[] gapped(int[] counts) {
        int[] displs = new int[counts.length];
        for (int r = 0, at = 0; r < counts.length; r++) {
            displs[r] = at + 1;
            at += counts[r] + 1;
        }
        return displs;
    }

    private static int end(int[] counts, int[] displs) {
        return displs[counts.length - 1] + counts[counts.length - 1];
    }

    private void expect(Call call, Vec got, int from, int length, IntToDoubleFunction expected) {
        checks++;
        for (int i = 0; i < length; i++) {
            double want = expected.applyAsDouble(i);
            double have = got.get(from + i);
            if (have != want) {
                failures++;
                System.out.println("FAIL " + call + " on rank " + rank + ": element " + (from + i) + " expected "
                        + text(want) + " got " + text(have));
                return;
            }
        }
    }

    /** Gaps before every block and the guard after the last stayed SENTINEL. */
    private void expectGaps(Call call, Vec got, int[] counts, int[] displs) {
        for (int r = 0; r < counts.length; r++) {
            expect(call, got, displs[r] - 1, 1, i -> SENTINEL);
        }
        expect(call, got, end(counts, displs), 1, i -> SENTINEL);
    }

    private static String text(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }

    // ---- the collectives ----------------------------------------------------------------------

    /** The last rank enters late; no rank may leave before it entered (one host's clock). */
    private void barrier(Form form) throws MPIException, InterruptedException {
        Call call = new Call("barrier", form, 0, -1, null);
        long entered = 0;
        if (rank == size - 1) {
            Thread.sleep(30);
            entered = System.currentTimeMillis();
        }
        Request request = start(form, comm::iBarrier, comm::barrier);
        if (request != null) {
            request.waitFor();
        }
        long left = System.currentTimeMillis();
        long[] last = {entered};
        comm.bcast(last, 1, MPI.LONG, size - 1);
        checks++;
        if (left < last[0]) {
            failures++;
            System.out.println("FAIL " + call + " on rank " + rank + ": left at " + left + " ms, before rank "
                    + (size - 1) + " entered at " + last[0] + " ms");
        }
    }

    private Started bcast(int n, int root, Form form) throws MPIException {
        Call call = new Call("bcast", form, n, root, null);
        Vec buf = received(n, form);
        if (rank == root) {
            buf.fill(0, n, i -> value(root, i));
        }
        Request request = start(form, () -> comm.iBcast(buf.buffer(), n, MPI.INT, root),
                () -> comm.bcast(buf.data, n, MPI.INT, root));
        return new Started(request, () -> {
            expect(call, buf, 0, n, i -> value(root, i));
            expect(call, buf, n, 1, i -> SENTINEL);
        });
    }

    private Started gather(int n, int root, Form form) throws MPIException {
        Call call = new Call("gather", form, n, root, null);
        Vec all = received(n * size, form);
        Vec mine = ints(n, form, i -> value(rank, i));
        boolean rootInPlace = form.inPlace && rank == root;
        if (rootInPlace) {
            all.fill(rank * n, n, i -> value(rank, i));
        }
        Vec send = rootInPlace ? all : mine;
        Request request = form.inPlace
                ? start(form, () -> comm.iGather(send.buffer(), n, MPI.INT, root),
                        () -> comm.gather(send.data, n, MPI.INT, root))
                : start(form, () -> comm.iGather(mine.buffer(), n, MPI.INT, all.buffer(), n, MPI.INT, root),
                        () -> comm.gather(mine.data, n, MPI.INT, all.data, n, MPI.INT, root));
        return new Started(request, () -> {
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    int from = r;
                    expect(call, all, r * n, n, i -> value(from, i));
                }
                expect(call, all, n * size, 1, i -> SENTINEL);
            }
        });
    }

    private Started gatherv(int n, int root, Form form) throws MPIException {
        Call call = new Call("gatherv", form, n, root, null);
        int[] counts = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = vcount(n, r);
        }
        int[] displs = gapped(counts);
        Vec all = received(end(counts, displs), form);
        Vec mine = ints(counts[rank], form, i -> value(rank, i));
        int own = counts[rank];
        Request request;
        if (rank != root) {
            request = start(form, () -> comm.iGatherv(mine.buffer(), own, MPI.INT, root),
                    () -> comm.gatherv(mine.data, own, MPI.INT, root));
        } else if (form.inPlace) {
            all.fill(displs[rank], own, i -> value(rank, i));
            request = start(form, () -> comm.iGatherv(all.buffer(), counts, displs, MPI.INT, root),
                    () -> comm.gatherv(all.data, counts, displs, MPI.INT, root));
        } else {
            request = start(form,
                    () -> comm.iGatherv(mine.buffer(), own, MPI.INT, all.buffer(), counts, displs, MPI.INT, root),
                    () -> comm.gatherv(mine.data, own, MPI.INT, all.data, counts, displs, MPI.INT, root));
        }
        return new Started(request, () -> {
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    int from = r;
                    expect(call, all, displs[r], counts[r], i -> value(from, i));
                }
                expectGaps(call, all, counts, displs);
            }
        });
    }

    private Started scatter(int n, int root, Form form) throws MPIException {
        Call call = new Call("scatter", form, n, root, null);
        Vec all = ints(n * size, form, i -> rank == root ? cell(root, i / n, i % n) : SENTINEL);
        Vec mine = received(n, form);
        boolean rootInPlace = form.inPlace && rank == root;
        Vec recv = rootInPlace ? all : mine;
        Request request = form.inPlace
                ? start(form, () -> comm.iScatter(recv.buffer(), n, MPI.INT, root),
                        () -> comm.scatter(recv.data, n, MPI.INT, root))
                : start(form, () -> comm.iScatter(all.buffer(), n, MPI.INT, mine.buffer(), n, MPI.INT, root),
                        () -> comm.scatter(all.data, n, MPI.INT, mine.data, n, MPI.INT, root));
        return new Started(request, () -> {
            expect(call, recv, rootInPlace ? rank * n : 0, n, i -> cell(root, rank, i));
            if (!rootInPlace) {
                expect(call, mine, n, 1, i -> SENTINEL);
            }
        });
    }

    private Started scatterv(int n, int root, Form form) throws MPIException {
        Call call = new Call("scatterv", form, n, root, null);
        int[] counts = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = vcount(n, r);
        }
        int[] displs = gapped(counts);
        Vec all = received(end(counts, displs), form);
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                int to = r;
                all.fill(displs[r], counts[r], i -> cell(root, to, i));
            }
        }
        int own = counts[rank];
        Vec mine = received(own, form);
        boolean rootInPlace = form.inPlace && rank == root;
        Request request;
        if (rank != root) {
            request = start(form, () -> comm.iScatterv(mine.buffer(), own, MPI.INT, root),
                    () -> comm.scatterv(mine.data, own, MPI.INT, root));
        } else if (form.inPlace) {
            request = start(form, () -> comm.iScatterv(all.buffer(), counts, displs, MPI.INT, root),
                    () -> comm.scatterv(all.data, counts, displs, MPI.INT, root));
        } else {
            request = start(form,
                    () -> comm.iScatterv(all.buffer(), counts, displs, MPI.INT, mine.buffer(), own, MPI.INT, root),
                    () -> comm.scatterv(all.data, counts, displs, MPI.INT, mine.data, own, MPI.INT, root));
        }
        return new Started(request, () -> {
            expect(call, rootInPlace ? all : mine, rootInPlace ? displs[rank] : 0, own, i -> cell(root, rank, i));
            expect(call, mine, own, 1, i -> SENTINEL);
        });
    }

    private Started allGather(int n, Form form) throws MPIException {
        Call call = new Call("allgather", form, n, -1, null);
        Vec all = received(n * size, form);
        Vec mine = ints(n, form, i -> value(rank, i));
        Request request;
        if (form.inPlace) {
            all.fill(rank * n, n, i -> value(rank, i));
            request = start(form, () -> comm.iAllGather(all.buffer(), n, MPI.INT),
                    () -> comm.allGather(all.data, n, MPI.INT));
        } else {
            request = start(form, () -> comm.iAllGather(mine.buffer(), n, MPI.INT, all.buffer(), n, MPI.INT),
                    () -> comm.allGather(mine.data, n, MPI.INT, all.data, n, MPI.INT));
        }
        return new Started(request, () -> {
            for (int r = 0; r < size; r++) {
                int from = r;
                expect(call, all, r * n, n, i -> value(from, i));
            }
            expect(call, all, n * size, 1, i -> SENTINEL);
        });
    }

    private Started allGatherv(int n, Form form) throws MPIException {
        Call call = new Call("allgatherv", form, n, -1, null);
        int[] counts = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = vcount(n, r);
        }
        int[] displs = gapped(counts);
        int own = counts[rank];
        Vec all = received(end(counts, displs), form);
        Vec mine = ints(own, form, i -> value(rank, i));
        Request request;
        if (form.inPlace) {
            all.fill(displs[rank], own, i -> value(rank, i));
            request = start(form, () -> comm.iAllGatherv(all.buffer(), counts, displs, MPI.INT),
                    () -> comm.allGatherv(all.data, counts, displs, MPI.INT));
        } else {
            request = start(form,
                    () -> comm.iAllGatherv(mine.buffer(), own, MPI.INT, all.buffer(), counts, displs, MPI.INT),
                    () -> comm.allGatherv(mine.data, own, MPI.INT, all.data, counts, displs, MPI.INT));
        }
        return new Started(request, () -> {
            for (int r = 0; r < size; r++) {
                int from = r;
                expect(call, all, displs[r], counts[r], i -> value(from, i));
            }
            expectGaps(call, all, counts, displs);
        });
    }

    private Started allToAll(int n, Form form) throws MPIException {
        Call call = new Call("alltoall", form, n, -1, null);
        Vec send = ints(n * size, form, i -> cell(rank, i / n, i % n));
        Vec recv = received(n * size, form);
        Request request = start(form, () -> comm.iAllToAll(send.buffer(), n, MPI.INT, recv.buffer(), n, MPI.INT),
                () -> comm.allToAll(send.data, n, MPI.INT, recv.data, n, MPI.INT));
        return new Started(request, () -> {
            for (int r = 0; r < size; r++) {
                int from = r;
                expect(call, recv, r * n, n, i -> cell(from, rank, i));
            }
            expect(call, recv, n * size, 1, i -> SENTINEL);
        });
    }

    private Started allToAllv(int n, Form form) throws MPIException {
        Call call = new Call("alltoallv", form, n, -1, null);
        int[] sc = new int[size];
        int[] rc = new int[size];
        for (int r = 0; r < size; r++) {
            sc[r] = pairCount(n, rank, r);
            rc[r] = pairCount(n, r, rank);
        }
        int[] sd = gapped(sc);
        int[] rd = gapped(rc);
        Vec send = new Vec(false, end(sc, sd) + 1, form.nonBlocking);
        for (int r = 0; r < size; r++) {
            int to = r;
            send.fill(sd[r], sc[r], i -> cell(rank, to, i));
        }
        Vec recv = received(end(rc, rd), form);
        Request request = start(form, () -> comm.iAllToAllv(send.buffer(), sc, sd, MPI.INT, recv.buffer(), rc, rd,
                MPI.INT), () -> comm.allToAllv(send.data, sc, sd, MPI.INT, recv.data, rc, rd, MPI.INT));
        return new Started(request, () -> {
            for (int r = 0; r < size; r++) {
                int from = r;
                expect(call, recv, rd[r], rc[r], i -> cell(from, rank, i));
            }
            expectGaps(call, recv, rc, rd);
        });
    }

    // ---- the reductions -------------------------------------------------------------------------

    /** This rank's operands for elements 0..elements-1, plus one guard element. */
    private Vec operands(Operation op, int elements, Form form) {
        int w = op.width();
        return new Vec(op.doubles(), (elements + 1) * w, form.nonBlocking)
                .fill(0, elements * w, j -> op.operand(rank, j / w, j % w))
                .fill(elements * w, w, j -> SENTINEL);
    }

    private static Vec results(Operation op, int elements, Form form) {
        return new Vec(op.doubles(), (elements + 1) * op.width(), form.nonBlocking).fill(0, (elements + 1) * op.width(),
                j -> SENTINEL);
    }

    /** Elements 0..elements-1 of {@code got} are the fold over ranks 0..ranks-1, and its guard is untouched. */
    private void expectFold(Call call, Vec got, Operation op, int ranks, int elements) {
        int w = op.width();
        expect(call, got, 0, elements * w, j -> op.fold(ranks, j / w, j % w));
        expect(call, got, elements * w, w, j -> SENTINEL);
    }

    private Started reduce(int n, int root, Operation op, Form form) throws MPIException {
        Call call = new Call("reduce", form, n, root, op);
        Vec mine = operands(op, n, form);
        Vec result = form.inPlace ? mine : results(op, n, form);
        Request request = form.inPlace
                ? start(form, () -> comm.iReduce(mine.buffer(), n, op.type(), op.op(), root),
                        () -> comm.reduce(mine.data, n, op.type(), op.op(), root))
                : start(form, () -> comm.iReduce(mine.buffer(), result.buffer(), n, op.type(), op.op(), root),
                        () -> comm.reduce(mine.data, result.data, n, op.type(), op.op(), root));
        return new Started(request, () -> {
            if (rank == root) {
                expectFold(call, result, op, size, n);
            }
        });
    }

    private Started allReduce(int n, Operation op, Form form) throws MPIException {
        Call call = new Call("allreduce", form, n, -1, op);
        Vec mine = operands(op, n, form);
        Vec result = form.inPlace ? mine : results(op, n, form);
        Request request = form.inPlace
                ? start(form, () -> comm.iAllReduce(mine.buffer(), n, op.type(), op.op()),
                        () -> comm.allReduce(mine.data, n, op.type(), op.op()))
                : start(form, () -> comm.iAllReduce(mine.buffer(), result.buffer(), n, op.type(), op.op()),
                        () -> comm.allReduce(mine.data, result.data, n, op.type(), op.op()));
        return new Started(request, () -> expectFold(call, result, op, size, n));
    }

    private Started reduceScatter(int n, Operation op, Form form) throws MPIException {
        Call call = new Call("reduce_scatter", form, n, -1, op);
        int[] counts = new int[size];
        int total = 0;
        int first = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = vcount(n, r);
            first += r < rank ? counts[r] : 0;
            total += counts[r];
        }
        int own = counts[rank];
        int at = first;
        Vec mine = operands(op, total, form);
        Vec result = form.inPlace ? mine : results(op, own, form);
        Request request = form.inPlace
                ? start(form, () -> comm.iReduceScatter(mine.buffer(), counts, op.type(), op.op()),
                        () -> comm.reduceScatter(mine.data, counts, op.type(), op.op()))
                : start(form, () -> comm.iReduceScatter(mine.buffer(), result.buffer(), counts, op.type(), op.op()),
                        () -> comm.reduceScatter(mine.data, result.data, counts, op.type(), op.op()));
        return new Started(request, () -> {
            int w = op.width();
            expect(call, result, 0, own * w, j -> op.fold(size, at + j / w, j % w));
            if (!form.inPlace) {
                expect(call, result, own * w, w, j -> SENTINEL);
            }
        });
    }

    private Started reduceScatterBlock(int n, Operation op, Form form) throws MPIException {
        Call call = new Call("reduce_scatter_block", form, n, -1, op);
        Vec mine = operands(op, n * size, form);
        Vec result = form.inPlace ? mine : results(op, n, form);
        Request request = form.inPlace
                ? start(form, () -> comm.iReduceScatterBlock(mine.buffer(), n, op.type(), op.op()),
                        () -> comm.reduceScatterBlock(mine.data, n, op.type(), op.op()))
                : start(form, () -> comm.iReduceScatterBlock(mine.buffer(), result.buffer(), n, op.type(), op.op()),
                        () -> comm.reduceScatterBlock(mine.data, result.data, n, op.type(), op.op()));
        return new Started(request, () -> {
            int w = op.width();
            expect(call, result, 0, n * w, j -> op.fold(size, rank * n + j / w, j % w));
            if (!form.inPlace) {
                expect(call, result, n * w, w, j -> SENTINEL);
            }
        });
    }

    /** scan, or exScan (whose result at rank 0 MPI leaves undefined: not checked). */
    private Started scan(int n, Operation op, Form form, boolean exclusive) throws MPIException {
        Call call = new Call(exclusive ? "exscan" : "scan", form, n, -1, op);
        Vec mine = operands(op, n, form);
        Vec result = form.inPlace ? mine : results(op, n, form);
        Request request;
        if (exclusive) {
            request = form.inPlace
                    ? start(form, () -> comm.iExScan(mine.buffer(), n, op.type(), op.op()),
                            () -> comm.exScan(mine.data, n, op.type(), op.op()))
                    : start(form, () -> comm.iExScan(mine.buffer(), result.buffer(), n, op.type(), op.op()),
                            () -> comm.exScan(mine.data, result.data, n, op.type(), op.op()));
        } else {
            request = form.inPlace
                    ? start(form, () -> comm.iScan(mine.buffer(), n, op.type(), op.op()),
                            () -> comm.scan(mine.data, n, op.type(), op.op()))
                    : start(form, () -> comm.iScan(mine.buffer(), result.buffer(), n, op.type(), op.op()),
                            () -> comm.scan(mine.data, result.data, n, op.type(), op.op()));
        }
        return new Started(request, () -> {
            if (!exclusive) {
                expectFold(call, result, op, rank + 1, n);
            } else if (rank > 0) {
                expectFold(call, result, op, rank, n);
            }
        });
    }
}
