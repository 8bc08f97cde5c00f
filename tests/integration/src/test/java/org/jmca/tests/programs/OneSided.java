package org.jmca.tests.programs;

import java.nio.IntBuffer;
import mpi.Group;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Win;

/**
 * Every call of {@link Win}, each result checked against what MPI says it must be, on any number
 * of ranks: fence with put, get and accumulate (SUM, MAX, REPLACE); getAccumulate and fetchAndOp
 * as counters; compareAndSwap with one winner; post/start/complete/wait and test; exclusive locks
 * as a mutex; lockAll with the request-based calls and every flush; then, under ERRORS_RETURN,
 * the error classes of wrong epochs, displacements, ranks, lock types, ops and a freed window.
 * The argument is the block of ints each rank puts (default 300: more than fits inline in a
 * control message).
 */
public final class OneSided {
    private interface Call {
        void run() throws MPIException;
    }

    private OneSided() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        IntBuffer base = MPI.newIntBuffer(size * n + 16);
        Win win = new Win(base, size * n + 16, 1, new Info(), MPI.COMM_WORLD);
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        int counter = size * n; // the int after the blocks
        Check.equal((int) win.getAttr(MPI.WIN_SIZE), 4 * (size * n + 16), "WIN_SIZE in bytes");
        Check.equal((int) win.getAttr(MPI.WIN_DISP_UNIT), 4, "WIN_DISP_UNIT in bytes");
        Check.equal(win.getGroup().getSize(), size, "the window's group");

        // Fence: every rank puts its block into every rank's window, then gets its neighbour's.
        win.fence(0);
        IntBuffer mine = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            mine.put(i, value(rank, i));
        }
        for (int target = 0; target < size; target++) {
            win.put(mine, n, MPI.INT, target, rank * n, n, MPI.INT);
        }
        win.fence(0);
        for (int from = 0; from < size; from++) {
            for (int i = 0; i < n; i++) {
                Check.equal(base.get(from * n + i), value(from, i), "fence put: int " + i + " of rank " + from);
            }
        }
        IntBuffer got = MPI.newIntBuffer(n);
        win.get(got, n, MPI.INT, next, previous * n, n, MPI.INT);
        win.fence(0);
        for (int i = 0; i < n; i++) {
            Check.equal(got.get(i), value(previous, i), "fence get: int " + i);
        }

        // Accumulates into rank 0's first block: SUM from everybody, then MAX, then REPLACE by the last rank.
        IntBuffer ones = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            ones.put(i, i + rank);
        }
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                base.put(i, 0);
            }
        }
        win.fence(0);
        win.accumulate(ones, n, MPI.INT, 0, 0, n, MPI.INT, MPI.SUM);
        win.fence(0);
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                Check.equal(base.get(i), size * i + size * (size - 1) / 2, "accumulate SUM: int " + i);
            }
        }
        win.accumulate(ones, n, MPI.INT, 0, 0, n, MPI.INT, MPI.MAX);
        win.fence(0);
        if (rank == 0) {
            Check.equal(base.get(1), size * 1 + size * (size - 1) / 2, "accumulate MAX keeps the larger sum");
        }
        win.fence(0); // rank 0's loads above are done before anybody replaces
        if (rank == size - 1) {
            win.accumulate(ones, n, MPI.INT, 0, 0, n, MPI.INT, MPI.REPLACE);
        }
        win.fence(0);
        if (rank == 0) {
            Check.equal(base.get(5), 5 + size - 1, "accumulate REPLACE");
        }

        // getAccumulate and fetchAndOp as a shared counter at rank 0: every value seen once.
        if (rank == 0) {
            base.put(counter, 0);
        }
        win.fence(0);
        IntBuffer one = MPI.newIntBuffer(1).put(0, 1);
        IntBuffer before = MPI.newIntBuffer(1);
        win.getAccumulate(one, 1, MPI.INT, before, 1, MPI.INT, 0, counter, 1, MPI.INT, MPI.SUM);
        win.fence(0);
        int[] seen = new int[size];
        MPI.COMM_WORLD.allGather(new int[] {before.get(0)}, 1, MPI.INT, seen, 1, MPI.INT);
        java.util.Arrays.sort(seen);
        for (int r = 0; r < size; r++) {
            Check.equal(seen[r], r, "the values getAccumulate saw, sorted");
        }
        IntBuffer fetched = MPI.newIntBuffer(1);
        win.fetchAndOp(one, fetched, MPI.INT, 0, counter, MPI.SUM);
        win.fence(0);
        IntBuffer read = MPI.newIntBuffer(1);
        win.fetchAndOp(null, read, MPI.INT, 0, counter, MPI.NO_OP);
        win.fence(0);
        Check.equal(read.get(0), 2 * size, "the counter after getAccumulate and fetchAndOp from every rank");
        Check.that(fetched.get(0) >= size && fetched.get(0) < 2 * size, "fetchAndOp saw " + fetched.get(0));

        // compareAndSwap: every rank tries 0 -> rank + 1; exactly one wins.
        if (rank == 0) {
            base.put(counter, 0);
        }
        win.fence(0);
        IntBuffer result = MPI.newIntBuffer(1);
        win.compareAndSwap(MPI.newIntBuffer(1).put(0, rank + 1), MPI.newIntBuffer(1).put(0, 0), result, MPI.INT, 0,
                counter);
        win.fence(0);
        int[] winners = new int[1];
        MPI.COMM_WORLD.allReduce(new int[] {result.get(0) == 0 ? 1 : 0}, winners, 1, MPI.INT, MPI.SUM);
        Check.equal(winners[0], 1, "ranks whose compareAndSwap found 0");
        win.fence(MPI.MODE_NOSUCCEED);

        // Post/start/complete/wait: rank 0 exposes to all others, each puts into its own block.
        Group world = MPI.COMM_WORLD.getGroup();
        if (rank == 0) {
            win.post(world.excl(new int[] {0}), 0);
            if (size > 1) {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
            } else {
                win.waitFor();
            }
            for (int from = 1; from < size; from++) {
                Check.equal(base.get(from * n + 3), -value(from, 3), "post/start put from rank " + from);
            }
        } else {
            win.start(world.incl(new int[] {0}), 0);
            IntBuffer negated = MPI.newIntBuffer(n);
            for (int i = 0; i < n; i++) {
                negated.put(i, -value(rank, i));
            }
            win.put(negated, n, MPI.INT, 0, rank * n, n, MPI.INT);
            win.complete();
        }
        MPI.COMM_WORLD.barrier();

        // Exclusive locks as a mutex: read, add one, write back; no increment may be lost.
        if (rank == 0) {
            base.put(counter + 1, 0);
        }
        MPI.COMM_WORLD.barrier();
        IntBuffer cell = MPI.newIntBuffer(1);
        for (int round = 0; round < 5; round++) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(cell, 1, MPI.INT, 0, counter + 1, 1, MPI.INT);
            win.flush(0);
            cell.put(0, cell.get(0) + 1);
            win.put(cell, 1, MPI.INT, 0, counter + 1, 1, MPI.INT);
            win.unlock(0);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            win.lock(MPI.LOCK_SHARED, 0, 0);
            Check.equal(base.get(counter + 1), 5 * size, "increments under exclusive locks");
            win.unlock(0);
        }

        // lockAll with the request-based calls and every flush.
        MPI.COMM_WORLD.barrier();
        win.lockAll(0);
        IntBuffer mark = MPI.newIntBuffer(1).put(0, 7000 + rank);
        Request put = win.rPut(mark, 1, MPI.INT, next, counter + 2, 1, MPI.INT);
        put.waitFor();
        win.flush(next);
        IntBuffer back = MPI.newIntBuffer(1);
        Request get = win.rGet(back, 1, MPI.INT, next, counter + 2, 1, MPI.INT);
        get.waitFor();
        Check.equal(back.get(0), 7000 + rank, "rGet after rPut and flush");
        Request acc = win.rAccumulate(one, 1, MPI.INT, next, counter + 2, 1, MPI.INT, MPI.SUM);
        acc.waitFor();
        IntBuffer old = MPI.newIntBuffer(1);
        Request getAcc = win.rGetAccumulate(one, 1, MPI.INT, old, 1, MPI.INT, next, counter + 2, 1, MPI.INT, MPI.SUM);
        getAcc.waitFor();
        Check.equal(old.get(0), 7001 + rank, "rGetAccumulate saw the rAccumulate");
        win.flushLocal(next);
        win.flushLocalAll();
        win.flushAll();
        win.sync();
        win.unlockAll();
        MPI.COMM_WORLD.barrier();
        Check.equal(base.get(counter + 2), 7002 + previous, "what the previous rank left here");

        errors(win, rank, size, n);
        win.free();
        Check.that(win.isNull(), "a freed window is null");
        System.out.println("rank " + rank + " windows direct puts=" + MPI.performanceVariable("osc_direct_puts")
                + " gets=" + MPI.performanceVariable("osc_direct_gets") + " active messages="
                + MPI.performanceVariable("osc_active_messages"));
        System.out.println("PASS one-sided " + rank);
        MPI.Finalize();
    }

    private static int value(int rank, int i) {
        return rank * 100_000 + i;
    }

    /** Wrong epochs, displacements, ranks, lock types and ops, each with its error class. */
    private static void errors(Win win, int rank, int size, int n) throws MPIException {
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer x = MPI.newIntBuffer(4);
        int end = size * n + 16;
        expect(MPI.ERR_RMA_SYNC, "needs an access epoch", () -> win.put(x, 1, MPI.INT, 0, 0, 1, MPI.INT));
        expect(MPI.ERR_RMA_SYNC, "not locked", () -> win.unlock(0));
        expect(MPI.ERR_RMA_SYNC, "complete without start", win::complete);
        expect(MPI.ERR_RMA_SYNC, "waitFor without post", win::waitFor);
        expect(MPI.ERR_RMA_SYNC, "a request-based operation needs an access epoch", () -> win.rPut(x, 1, MPI.INT, 0, 0,
                1, MPI.INT));
        expect(MPI.ERR_LOCKTYPE, "lock type 7", () -> win.lock(7, 0, 0));
        win.fence(0);
        expect(MPI.ERR_RMA_RANGE, "do not fit rank 0's window", () -> win.put(x, 2, MPI.INT, 0, end - 1, 2, MPI.INT));
        expect(MPI.ERR_DISP, "displacement -1", () -> win.get(x, 1, MPI.INT, 0, -1, 1, MPI.INT));
        expect(MPI.ERR_RANK, "rank " + size, () -> win.put(x, 1, MPI.INT, size, 0, 1, MPI.INT));
        expect(MPI.ERR_OP, "predefined operations only", () -> win.accumulate(x, 1, MPI.INT, 0, 0, 1, MPI.INT,
                new Op(new mpi.UserFunction() { }, true)));
        expect(MPI.ERR_OP, "MPI.MINLOC is not defined for MPI.INT", () -> win.accumulate(x, 1, MPI.INT, 0, 0, 1,
                MPI.INT, MPI.MINLOC));
        win.put(x, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT); // a no-op
        win.fence(0);
        win.get(x, 1, MPI.INT, rank, 0, 1, MPI.INT); // the epoch opened by the fence is in use
        expect(MPI.ERR_RMA_SYNC, "fence is in use", () -> win.lock(MPI.LOCK_SHARED, 0, 0));
        win.fence(MPI.MODE_NOSUCCEED);
        win.lock(MPI.LOCK_SHARED, 0, 0);
        expect(MPI.ERR_RMA_SYNC, "locked already", () -> win.lock(MPI.LOCK_SHARED, 0, 0));
        expect(MPI.ERR_RMA_SYNC, "passive-target epoch (unlock first)", () -> win.fence(0));
        IntBuffer tooSmall = MPI.newIntBuffer(1);
        expect(MPI.ERR_BUFFER, "buffer too small", () -> win.put(tooSmall, 2, MPI.INT, 0, 0, 2, MPI.INT));
        win.unlock(0);
        win.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    private static void expect(int errorClass, String fragment, Call call) {
        try {
            call.run();
            throw new AssertionError("expected error class " + errorClass + " (" + fragment + "), but the call returned");
        } catch (MPIException e) {
            Check.equal(e.getErrorClass(), errorClass, "error class of '" + e.getMessage() + "'");
            Check.that(e.getMessage().contains(fragment), "message '" + e.getMessage() + "' lacks '" + fragment + "'");
        }
    }
}
