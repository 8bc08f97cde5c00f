package org.jmca.osc;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * A window's active-target synchronization, as Open MPI's {@code osc_rdma_active_target.c}: fence
 * (collective: completes the epoch before it and opens the next) and post/start/complete/wait
 * (an exposure epoch to a group of origins, an access epoch to a group of targets). Each fence
 * round and each complete tells every target how many operations to expect, and ends once the
 * targets have carried out as many.
 *
 * <p>It does not know the passive-target epochs: the window says whether a lock is held where the
 * rules forbid one, and {@link PassiveTarget} asks here about the epochs a lock must not overlap.
 *
 * <p>Threads: the thread that owns progress.
 */
final class ActiveTarget {
    private final WindowEnvironment env;
    private final TargetSide target;
    private final IssuedOperations issued;
    private final int me;

    private boolean fenceOpen;
    private boolean fenceUsed;
    private long rounds;
    private int[] accessGroup;
    private int[] exposureGroup;
    /** Per origin: the POSTs that came from it, and how many of them a start has taken. */
    private final long[] postsSeen;
    private final long[] postsTaken;
    /** Per origin: the completes a wait has taken. */
    private final long[] completesTaken;

    ActiveTarget(WindowEnvironment env, TargetSide target, IssuedOperations issued) {
        this.env = env;
        this.target = target;
        this.issued = issued;
        this.me = env.rank();
        int size = env.size();
        this.postsSeen = new long[size];
        this.postsTaken = new long[size];
        this.completesTaken = new long[size];
    }

    /** The target side's notice: {@code from} posted (opened an exposure epoch to this rank). */
    void posted(int from) {
        postsSeen[from]++;
    }

    /** True if an epoch of fence, or a start naming {@code rank}, lets this rank reach {@code rank}'s window. */
    boolean canAccess(int rank) {
        return fenceOpen || (accessGroup != null && contains(accessGroup, rank));
    }

    /** An operation was issued: the epoch fence opened, if open, is in use. */
    void accessed() {
        fenceUsed |= fenceOpen;
    }

    /** True while an access epoch opened by start is open. */
    boolean started() {
        return accessGroup != null;
    }

    /** True while an epoch of post/start is open, for access or exposure. */
    boolean postStartOpen() {
        return accessGroup != null || exposureGroup != null;
    }

    /** A fence opens an epoch that a lock may end only if no operation used it (as Open MPI's osc/rdma). */
    void leaveUnusedFence(String call) throws OscException {
        if (fenceOpen && fenceUsed) {
            throw new OscException(OscError.SYNC, call + " while the epoch opened by fence is in use (end it with"
                    + " fence(MPI.MODE_NOSUCCEED))");
        }
        fenceOpen = false;
    }

    // ---- fence ----------------------------------------------------------------------------------

    /**
     * Collective: completes the epoch before it and, unless {@code MODE_NOSUCCEED}, opens the next.
     *
     * @param lockHeld whether this rank holds a lock (a passive-target epoch, which a fence may not end)
     */
    void fence(int assertion, boolean lockHeld) throws OscException {
        if (lockHeld || postStartOpen()) {
            throw new OscException(OscError.SYNC, "fence during a " + (lockHeld ? "passive-target epoch (unlock first)"
                    : "post/start epoch (complete and wait first)"));
        }
        exchangeRound(Control.FENCE);
        fenceOpen = (assertion & OscWindow.MODE_NOSUCCEED) == 0;
        if (fenceOpen && (assertion & OscWindow.MODE_NOPRECEDE) == 0) {
            // A rank's round ends once the operations aimed at it are carried out, not those
            // aimed at the others: without a second round, an operation of the next epoch (a
            // direct get above all) could reach a target still carrying out this one's.
            exchangeRound(Control.FENCE);
        }
        fenceUsed = false;
    }

    /**
     * Every rank tells every other how many operations it sent there, then waits for all of them
     * to do the same and for the operations counted to be carried out: a barrier that completes
     * every operation before it (of a fence, or of the window's free).
     */
    void exchangeRound(int kind) {
        waitUntil(issued::allLocallyComplete);
        long round = ++rounds;
        for (int r = 0; r < env.size(); r++) {
            if (r != me) {
                MemorySegment message = Control.of(kind, round, issued.count(r));
                target.send(r, message);
            }
        }
        waitUntil(() -> target.roundDone(round));
        issued.allAnswered();
    }

    // ---- post/start/complete/wait ---------------------------------------------------------------

    /**
     * Opens an access epoch to the ranks of {@code group} once each has posted.
     *
     * @param lockHeld whether this rank holds a lock (an access epoch already)
     */
    void start(int[] group, boolean lockHeld) throws OscException {
        for (int r : group) {
            OscWindow.checkRank(r, env.size());
        }
        if (accessGroup != null || lockHeld) {
            throw new OscException(OscError.SYNC, "start while an access epoch is open (" + (lockHeld ? "a lock"
                    : "an earlier start") + ")");
        }
        leaveUnusedFence("start");
        int[] targets = group.clone();
        waitUntil(() -> {
            for (int r : targets) {
                if (postsSeen[r] <= postsTaken[r]) {
                    return false;
                }
            }
            return true;
        });
        for (int r : targets) {
            postsTaken[r]++;
        }
        accessGroup = targets;
    }

    /** Ends the access epoch of {@link #start}: every target learns how many operations to expect. */
    void complete() throws OscException {
        if (accessGroup == null) {
            throw new OscException(OscError.SYNC, "complete without start");
        }
        for (int r : accessGroup) {
            waitUntil(() -> issued.locallyComplete(r));
            if (r == me) {
                target.completesSeen[me]++;
            } else {
                target.send(r, Control.of(Control.COMPLETE, 0, issued.count(r)));
                issued.answered(r);
            }
        }
        accessGroup = null;
    }

    /** Opens an exposure epoch to the ranks of {@code group}: tells each it may start. */
    void post(int[] group) throws OscException {
        for (int r : group) {
            OscWindow.checkRank(r, env.size());
        }
        if (exposureGroup != null) {
            throw new OscException(OscError.SYNC, "post while an exposure epoch is open (wait first)");
        }
        exposureGroup = group.clone();
        for (int r : exposureGroup) {
            if (r == me) {
                posted(me);
            } else {
                target.send(r, Control.of(Control.POST, 0, 0));
            }
        }
    }

    /** Waits until every rank of the posted group has completed and its operations are carried out. */
    void waitExposure() throws OscException {
        checkExposure("waitFor");
        waitUntil(this::exposureDone);
        endExposure();
    }

    /** As {@link #waitExposure}, without waiting: true (and the epoch ended) if it is done. */
    boolean testExposure() throws OscException {
        checkExposure("test");
        env.progress().progress();
        if (!exposureDone()) {
            return false;
        }
        endExposure();
        return true;
    }

    private void checkExposure(String call) throws OscException {
        if (exposureGroup == null) {
            throw new OscException(OscError.SYNC, call + " without post");
        }
    }

    private boolean exposureDone() {
        for (int r : exposureGroup) {
            if (target.completesSeen[r] <= completesTaken[r] || (r != me && target.processed[r] < target.completeCounts[r])) {
                return false;
            }
        }
        return true;
    }

    private void endExposure() {
        for (int r : exposureGroup) {
            completesTaken[r]++;
        }
        exposureGroup = null;
    }

    private static boolean contains(int[] group, int rank) {
        for (int r : group) {
            if (r == rank) {
                return true;
            }
        }
        return false;
    }

    private void waitUntil(BooleanSupplier done) {
        env.progress().waitUntil(done);
    }
}
