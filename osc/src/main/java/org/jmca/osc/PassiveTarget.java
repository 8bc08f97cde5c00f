package org.jmca.osc;

import java.util.function.BooleanSupplier;

/**
 * A window's passive-target synchronization at this origin, as Open MPI's
 * {@code osc_rdma_passive_target.c}: lock and unlock (of one target, or all), flush (until the
 * operations are complete at the target) and flush-local (until they are complete here). A lock is
 * requested of the target's {@link TargetLocks} and waited for; an unlock or flush carries the count
 * of operations sent the target, which answers once it has carried out as many.
 *
 * <p>A lock may not overlap an access epoch of start, and may end an epoch of fence only if no
 * operation used it: the {@link ActiveTarget} is asked.
 *
 * <p>Threads: the thread that owns progress.
 */
final class PassiveTarget {
    private final WindowEnvironment env;
    private final TargetSide target;
    private final IssuedOperations issued;
    private final ActiveTarget active;
    private final int me;
    private final int size;

    /** Per target: the lock held (LOCK_EXCLUSIVE, LOCK_SHARED) or 0. */
    private final int[] locked;
    private boolean lockedAll;
    /** Per target: its lock is granted; the unlocks and flushes it has answered. */
    private final boolean[] granted;
    private final long[] unlocksDone;
    private final long[] flushesDone;

    PassiveTarget(WindowEnvironment env, TargetSide target, IssuedOperations issued, ActiveTarget active) {
        this.env = env;
        this.target = target;
        this.issued = issued;
        this.active = active;
        this.me = env.rank();
        this.size = env.size();
        this.locked = new int[size];
        this.granted = new boolean[size];
        this.unlocksDone = new long[size];
        this.flushesDone = new long[size];
    }

    // ---- notices from the target side ----

    void granted(int from) {
        granted[from] = true;
    }

    void unlocked(int from) {
        unlocksDone[from]++;
    }

    void flushed(int from) {
        flushesDone[from]++;
    }

    // ---- epochs ---------------------------------------------------------------------------------

    /** True while this rank holds a lock on {@code rank}'s window (its own, or of lockAll). */
    boolean holds(int rank) {
        return lockedAll || locked[rank] != 0;
    }

    /** True while this rank holds any lock: a passive-target epoch is open. */
    boolean anyLock() {
        if (lockedAll) {
            return true;
        }
        for (int l : locked) {
            if (l != 0) {
                return true;
            }
        }
        return false;
    }

    void lock(int type, int rank) throws OscException {
        if (type != OscWindow.LOCK_EXCLUSIVE && type != OscWindow.LOCK_SHARED) {
            throw new OscException(OscError.LOCKTYPE, "lock type " + type + " is neither MPI.LOCK_EXCLUSIVE nor"
                    + " MPI.LOCK_SHARED");
        }
        if (rank == OscWindow.PROC_NULL) {
            return;
        }
        OscWindow.checkRank(rank, size);
        if (locked[rank] != 0 || lockedAll) {
            throw new OscException(OscError.SYNC, "rank " + rank + " is locked already (unlock it first)");
        }
        active.leaveUnusedFence("lock");
        if (active.started()) {
            throw new OscException(OscError.SYNC, "lock during an access epoch opened by start");
        }
        acquire(type, rank);
        locked[rank] = type;
    }

    private void acquire(int type, int rank) {
        granted[rank] = false;
        if (rank == me) {
            target.locks.request(me, type);
        } else {
            target.send(rank, Control.of(Control.LOCK, 0, type));
        }
        waitUntil(() -> granted[rank]);
    }

    void unlock(int rank) throws OscException {
        if (rank == OscWindow.PROC_NULL) {
            return;
        }
        OscWindow.checkRank(rank, size);
        if (locked[rank] == 0) {
            throw new OscException(OscError.SYNC, "rank " + rank + " is not locked");
        }
        release(rank);
        locked[rank] = 0;
    }

    private void release(int rank) {
        waitUntil(() -> issued.locallyComplete(rank));
        if (rank == me) {
            target.locks.release(me);
            return;
        }
        issued.answered(rank);
        long expected = unlocksDone[rank] + 1;
        target.send(rank, Control.of(Control.UNLOCK, 0, issued.count(rank)));
        waitUntil(() -> unlocksDone[rank] >= expected);
    }

    void lockAll() throws OscException {
        if (lockedAll || anyLock()) {
            throw new OscException(OscError.SYNC, "lockAll while a lock is held");
        }
        active.leaveUnusedFence("lockAll");
        if (active.started()) {
            throw new OscException(OscError.SYNC, "lockAll during an access epoch opened by start");
        }
        for (int r = 0; r < size; r++) {
            acquire(OscWindow.LOCK_SHARED, r);
        }
        lockedAll = true;
    }

    void unlockAll() throws OscException {
        if (!lockedAll) {
            throw new OscException(OscError.SYNC, "unlockAll without lockAll");
        }
        for (int r = 0; r < size; r++) {
            release(r);
        }
        lockedAll = false;
    }

    // ---- flush ----------------------------------------------------------------------------------

    /** Waits until this rank's operations to {@code rank} are complete here (MPI_Win_flush_local). */
    void flushLocal(int rank) throws OscException {
        OscWindow.checkRank(rank, size);
        checkPassive(rank, "flushLocal");
        waitUntil(() -> issued.locallyComplete(rank));
    }

    void flushLocalAll() throws OscException {
        checkAnyPassive("flushLocalAll");
        waitUntil(issued::allLocallyComplete);
    }

    /** Waits until this rank's operations to {@code rank} are complete there too (MPI_Win_flush). */
    void flush(int rank) throws OscException {
        OscWindow.checkRank(rank, size);
        checkPassive(rank, "flush");
        remoteComplete(rank);
    }

    void flushAll() throws OscException {
        checkAnyPassive("flushAll");
        for (int r = 0; r < size; r++) {
            remoteComplete(r);
        }
    }

    /** Waits until the operations to {@code rank} are complete there; a reply already showed it for gets. */
    private void remoteComplete(int rank) {
        waitUntil(() -> issued.locallyComplete(rank));
        if (rank == me || !issued.anyUnanswered(rank)) {
            return;
        }
        issued.answered(rank);
        long expected = flushesDone[rank] + 1;
        target.send(rank, Control.of(Control.FLUSH, 0, issued.count(rank)));
        waitUntil(() -> flushesDone[rank] >= expected);
    }

    private void checkPassive(int rank, String call) throws OscException {
        if (!holds(rank)) {
            throw new OscException(OscError.SYNC, call + "(" + rank + ") outside a passive-target epoch on rank " + rank);
        }
    }

    private void checkAnyPassive(String call) throws OscException {
        if (!anyLock()) {
            throw new OscException(OscError.SYNC, call + " outside a passive-target epoch");
        }
    }

    private void waitUntil(BooleanSupplier done) {
        env.progress().waitUntil(done);
    }
}
