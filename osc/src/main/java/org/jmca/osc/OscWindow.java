package org.jmca.osc;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressEngine;

/**
 * One rank's part of an MPI window: its origin side (the calls) and, through {@link TargetSide},
 * its target side. Each operation takes the fastest way its target allows:
 *
 * <ul>
 *   <li><b>this rank's own window</b>: carried out in the call;</li>
 *   <li><b>direct RMA</b>: a put or get over the BTL that carries the PML's traffic to the
 *       target, when that BTL can put or get and the target exposed its window on it; complete
 *       when the BTL call returns, with no work at the target;</li>
 *   <li><b>active messages</b> otherwise, and always for the accumulate family (carried out where
 *       the window is, one at a time, which makes them atomic with respect to each other): a
 *       control message on the window's own context, the data inline or after it.</li>
 * </ul>
 *
 * Synchronization follows MPI: fence, post/start/complete/wait, lock/unlock and lock-all, flush.
 * Each origin counts the active messages it sent each target; a fence, complete, unlock or flush
 * carries that count, and the target answers once it has carried out as many.
 *
 * <p>Threads: every call, and the target side, on the thread that owns progress.
 */
public final class OscWindow {
    public static final int LOCK_EXCLUSIVE = TargetLocks.EXCLUSIVE;
    public static final int LOCK_SHARED = TargetLocks.SHARED;
    /** Op codes of MPI.REPLACE and MPI.NO_OP; the others are the MPI layer's own. */
    public static final int REPLACE = Accumulation.REPLACE;
    public static final int NO_OP = Accumulation.NO_OP;
    /** MPI_MODE_NOSUCCEED: the fence ends the epochs. */
    public static final int MODE_NOSUCCEED = 16;
    /** MPI_MODE_NOPRECEDE: no operation comes before the fence (every rank asserts it, or none). */
    public static final int MODE_NOPRECEDE = 2;

    private final WindowEnvironment env;
    private final MemorySegment memory;
    private final WindowPeer[] peers;
    private final BtlEndpoint[] endpoints;
    private final TargetSide target;
    private final ProgressEngine.Registration registration;
    private final int me;
    private final int size;

    // ---- origin side ----
    private long nextId;
    /** Per target: active-message operations sent, cumulative. */
    private final long[] issued;
    /** Per target: operations sent since the last flush whose completion there no reply has shown (puts, accumulates). */
    private final long[] unanswered;
    /** Per target: messages of this rank's that are not locally complete yet. */
    private final List<PmlRequest>[] outstanding;
    private final boolean[] granted;
    private final long[] unlocksDone;
    private final long[] flushesDone;
    private final long[] postsSeen;
    private final long[] postsTaken;

    // ---- epochs ----
    private boolean fenceOpen;
    private boolean fenceUsed;
    private long rounds;
    /** Per target: the lock held (LOCK_EXCLUSIVE, LOCK_SHARED) or 0. */
    private final int[] locked;
    private boolean lockedAll;
    private int[] accessGroup;
    private int[] exposureGroup;
    private long[] completesTaken;
    private boolean freed;

    @SuppressWarnings("unchecked")
    private OscWindow(WindowEnvironment env, MemorySegment memory, WindowPeer[] peers) {
        this.env = env;
        this.memory = memory;
        this.peers = peers;
        this.me = env.rank();
        this.size = env.size();
        this.endpoints = new BtlEndpoint[size];
        for (int r = 0; r < size; r++) {
            endpoints[r] = r == me ? null : env.pml().endpoint(env.jobRanks()[r]);
        }
        this.issued = new long[size];
        this.unanswered = new long[size];
        this.outstanding = new List[size];
        for (int r = 0; r < size; r++) {
            outstanding[r] = new ArrayList<>();
        }
        this.granted = new boolean[size];
        this.unlocksDone = new long[size];
        this.flushesDone = new long[size];
        this.postsSeen = new long[size];
        this.postsTaken = new long[size];
        this.locked = new int[size];
        this.completesTaken = new long[size];
        this.target = new TargetSide(this, env, memory);
        target.start();
        this.registration = env.progress().register(target::progress, ProgressEngine.Priority.HIGH);
    }

    /**
     * Opens this rank's part of a window whose ranks have exchanged their {@link WindowPeer}s.
     *
     * @param memory this rank's window memory (native, so that peers can reach it)
     * @param peers  every rank's window, by rank
     */
    public static OscWindow open(WindowEnvironment env, MemorySegment memory, WindowPeer[] peers) {
        return new OscWindow(env, memory, peers.clone());
    }

    /**
     * This rank's keys for {@code memory} on each of {@code btls} that can put or get, for its
     * {@link WindowPeer}.
     */
    public static List<WindowPeer.RdmaKeys> expose(MemorySegment memory, List<BtlModule> btls) {
        List<WindowPeer.RdmaKeys> keys = new ArrayList<>();
        for (BtlModule btl : btls) {
            boolean get = btl.canGet(memory.byteSize());
            boolean put = btl.canPut(memory.byteSize());
            if ((get || put) && keys.size() < WindowPeer.MAX_KEYS) {
                keys.add(new WindowPeer.RdmaKeys(btl.componentName(), get ? btl.exposeForGet(memory) : BtlModule.NOT_EXPOSED,
                        put ? btl.exposeForPut(memory) : BtlModule.NOT_EXPOSED));
            }
        }
        return keys;
    }

    // ---- called by the target side ----

    void granted(int from) {
        granted[from] = true;
    }

    void unlocked(int from) {
        unlocksDone[from]++;
    }

    void flushed(int from) {
        flushesDone[from]++;
    }

    void posted(int from) {
        postsSeen[from]++;
    }

    // ---- operations ---------------------------------------------------------------------------

    public OscRequest put(MemorySegment origin, int rank, long disp, boolean requestBased) throws OscException {
        long at = checkAccess(rank, disp, origin.byteSize(), requestBased);
        if (rank < 0) {
            return OscRequest.DONE;
        }
        if (rank == me) {
            MemorySegment.copy(origin, 0, memory, at, origin.byteSize());
            return OscRequest.DONE;
        }
        WindowPeer.RdmaKeys keys = directKeys(rank, origin.byteSize(), true);
        if (keys != null && endpoints[rank].module().put(endpoints[rank], origin, peers[rank].address() + at,
                keys.putKey())) {
            env.counters().directPuts++;
            return OscRequest.DONE;
        }
        return activeMessage(Control.PUT, rank, at, origin, null, 0, 0, 0, 0);
    }

    public OscRequest get(MemorySegment origin, int rank, long disp, boolean requestBased) throws OscException {
        long at = checkAccess(rank, disp, origin.byteSize(), requestBased);
        if (rank < 0) {
            return OscRequest.DONE;
        }
        if (rank == me) {
            MemorySegment.copy(memory, at, origin, 0, origin.byteSize());
            return OscRequest.DONE;
        }
        WindowPeer.RdmaKeys keys = directKeys(rank, origin.byteSize(), false);
        if (keys != null && origin.isNative() && endpoints[rank].module().get(endpoints[rank],
                peers[rank].address() + at, keys.getKey(), origin)) {
            env.counters().directGets++;
            return OscRequest.DONE;
        }
        return activeMessage(Control.GET, rank, at, MemorySegment.NULL, origin, origin.byteSize(), 0, 0, 0);
    }

    public OscRequest accumulate(MemorySegment origin, int rank, long disp, int op, int type, int element,
                                 boolean requestBased) throws OscException {
        if (op == NO_OP) {
            throw new OscException(OscError.OP, "MPI.NO_OP is for getAccumulate and fetchAndOp only");
        }
        long at = checkAccess(rank, disp, origin.byteSize(), requestBased);
        if (rank < 0) {
            return OscRequest.DONE;
        }
        if (rank == me) {
            Accumulation.apply(env.reductions(), op, type, element, origin, memory.asSlice(at, origin.byteSize()));
            return OscRequest.DONE;
        }
        return activeMessage(Control.ACCUMULATE, rank, at, origin, null, 0, op, type, element);
    }

    /**
     * The target's values land in {@code result}, then {@code origin op target} is stored
     * ({@code origin} is ignored for MPI.NO_OP, which only reads).
     */
    public OscRequest getAccumulate(MemorySegment origin, MemorySegment result, int rank, long disp, int op, int type,
                                    int element, boolean requestBased) throws OscException {
        if (op != NO_OP && origin.byteSize() != result.byteSize()) {
            throw new OscException(OscError.COUNT, "the origin has " + origin.byteSize() + " bytes, the result "
                    + result.byteSize() + ": their counts must match");
        }
        long at = checkAccess(rank, disp, result.byteSize(), requestBased);
        if (rank < 0) {
            return OscRequest.DONE;
        }
        MemorySegment data = op == NO_OP ? MemorySegment.NULL : origin;
        if (rank == me) {
            MemorySegment here = memory.asSlice(at, result.byteSize());
            MemorySegment.copy(here, 0, result, 0, result.byteSize());
            Accumulation.apply(env.reductions(), op, type, element, data, here);
            return OscRequest.DONE;
        }
        return activeMessage(Control.GET_ACCUMULATE, rank, at, data, result, result.byteSize(), op, type, element);
    }

    /** Stores {@code origin} in the target element if it equals {@code compare}; the element's value before lands in {@code result}. */
    public void compareAndSwap(MemorySegment origin, MemorySegment compare, MemorySegment result, int rank, long disp,
                               int type, int element) throws OscException {
        long at = checkAccess(rank, disp, element, false);
        if (rank < 0) {
            return;
        }
        if (rank == me) {
            MemorySegment here = memory.asSlice(at, element);
            MemorySegment.copy(here, 0, result, 0, element);
            if (here.mismatch(compare.asSlice(0, element)) == -1) {
                MemorySegment.copy(origin, 0, here, 0, element);
            }
            return;
        }
        MemorySegment pair = MemorySegment.ofArray(new byte[2 * element]);
        MemorySegment.copy(compare, 0, pair, 0, element);
        MemorySegment.copy(origin, 0, pair, element, element);
        activeMessage(Control.COMPARE_AND_SWAP, rank, at, pair, result, element, 0, type, element);
    }

    /** The keys to reach {@code rank}'s window directly for {@code bytes}, or null if active messages must carry them. */
    private WindowPeer.RdmaKeys directKeys(int rank, long bytes, boolean put) {
        BtlEndpoint endpoint = endpoints[rank];
        if (endpoint == null) {
            return null;
        }
        BtlModule btl = endpoint.module();
        WindowPeer.RdmaKeys keys = peers[rank].keysOf(btl.componentName());
        if (keys == null) {
            return null;
        }
        return put ? btl.canPut(bytes) && keys.putKey() != BtlModule.NOT_EXPOSED ? keys : null
                : btl.canGet(bytes) && keys.getKey() != BtlModule.NOT_EXPOSED ? keys : null;
    }

    /**
     * Sends one operation as active messages: its control message (with the data when it is
     * small), its data apart when it is not, and first the receive of its reply.
     */
    private OscRequest activeMessage(int kind, int rank, long at, MemorySegment data, MemorySegment reply,
                                     long replyBytes, int op, int type, int element) {
        long id = ++nextId;
        int job = env.jobRanks()[rank];
        List<PmlRequest> parts = new ArrayList<>(3);
        if (reply != null) {
            parts.add(env.pml().irecv(reply, job, Control.replyTag(id), env.dataContext()));
        }
        MemorySegment control = Control.operation(kind, id, at, data, op, type, element);
        if (replyBytes > 0) {
            control.set(java.lang.foreign.ValueLayout.JAVA_LONG, Control.COUNT, replyBytes);
        }
        parts.add(env.pml().isend(control, job, 0, env.controlContext(), SendMode.STANDARD));
        if (!Control.inline(data.byteSize())) {
            parts.add(env.pml().isend(data, job, Control.dataTag(id), env.dataContext(), SendMode.STANDARD));
        }
        issued[rank]++;
        if (reply == null) {
            unanswered[rank]++;
        }
        env.counters().activeMessages++;
        outstanding[rank].addAll(parts);
        return new OscRequest(parts);
    }

    // ---- checks -------------------------------------------------------------------------------

    /**
     * Checks an access of {@code bytes} at displacement {@code disp} of rank {@code rank}'s window
     * and returns its byte offset there; -1 (and the rank -1) for MPI.PROC_NULL.
     */
    private long checkAccess(int rank, long disp, long bytes, boolean requestBased) throws OscException {
        checkOpen();
        if (rank == PROC_NULL) {
            return -1;
        }
        checkRank(rank);
        if (disp < 0) {
            throw new OscException(OscError.DISP, "target displacement " + disp + " is negative");
        }
        // request-based calls too in any access epoch, as Open MPI accepts them (the standard
        // names passive target only): the request completes locally, the epoch's end remotely
        if (!canAccess(rank)) {
            throw new OscException(OscError.SYNC, (requestBased ? "a request-based operation" : "an operation")
                    + " needs an access epoch on rank " + rank + ": none is open (call fence, start, lock or lockAll"
                    + " first)");
        }
        long at = disp * peers[rank].dispUnit();
        if (at + bytes > peers[rank].bytes()) {
            throw new OscException(OscError.RANGE, bytes + " bytes at displacement " + disp + " (byte " + at
                    + ") do not fit rank " + rank + "'s window of " + peers[rank].bytes() + " bytes");
        }
        fenceUsed |= fenceOpen;
        return at;
    }

    /** MPI.PROC_NULL. */
    public static final int PROC_NULL = -2;

    private void checkOpen() throws OscException {
        if (freed) {
            throw new OscException(OscError.WIN, "the window has been freed");
        }
    }

    private void checkRank(int rank) throws OscException {
        if (rank < 0 || rank >= size) {
            throw new OscException(OscError.RANK, "rank " + rank + " is not in the window's group of " + size);
        }
    }

    private boolean passive(int rank) {
        return lockedAll || locked[rank] != 0;
    }

    private boolean canAccess(int rank) {
        return fenceOpen || passive(rank) || (accessGroup != null && contains(accessGroup, rank));
    }

    private static boolean contains(int[] group, int rank) {
        for (int r : group) {
            if (r == rank) {
                return true;
            }
        }
        return false;
    }

    private boolean anyLock() {
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

    private void waitUntil(BooleanSupplier done) {
        env.progress().waitUntil(done);
    }

    // ---- completion ---------------------------------------------------------------------------

    private boolean locallyComplete(int rank) {
        outstanding[rank].removeIf(PmlRequest::isComplete);
        return outstanding[rank].isEmpty();
    }

    /** Waits until this rank's operations to {@code rank} are complete here (MPI_Win_flush_local). */
    public void flushLocal(int rank) throws OscException {
        checkOpen();
        checkRank(rank);
        checkPassive(rank, "flushLocal");
        waitUntil(() -> locallyComplete(rank));
    }

    public void flushLocalAll() throws OscException {
        checkOpen();
        checkAnyPassive("flushLocalAll");
        waitUntil(this::allLocallyComplete);
    }

    private boolean allLocallyComplete() {
        for (int r = 0; r < size; r++) {
            if (!locallyComplete(r)) {
                return false;
            }
        }
        return true;
    }

    /** Waits until this rank's operations to {@code rank} are complete there too (MPI_Win_flush). */
    public void flush(int rank) throws OscException {
        checkOpen();
        checkRank(rank);
        checkPassive(rank, "flush");
        remoteComplete(rank);
    }

    public void flushAll() throws OscException {
        checkOpen();
        checkAnyPassive("flushAll");
        for (int r = 0; r < size; r++) {
            remoteComplete(r);
        }
    }

    /** Waits until the operations to {@code rank} are complete there; a reply already showed it for gets. */
    private void remoteComplete(int rank) {
        waitUntil(() -> locallyComplete(rank));
        if (rank == me || unanswered[rank] == 0) {
            return;
        }
        unanswered[rank] = 0;
        long expected = flushesDone[rank] + 1;
        target.send(rank, Control.of(Control.FLUSH, 0, issued[rank]));
        waitUntil(() -> flushesDone[rank] >= expected);
    }

    private void checkPassive(int rank, String call) throws OscException {
        if (!passive(rank)) {
            throw new OscException(OscError.SYNC, call + "(" + rank + ") outside a passive-target epoch on rank " + rank);
        }
    }

    private void checkAnyPassive(String call) throws OscException {
        if (!anyLock()) {
            throw new OscException(OscError.SYNC, call + " outside a passive-target epoch");
        }
    }

    /** Memory is shared with the window's own stores: nothing to do but order this thread's accesses. */
    public void sync() throws OscException {
        checkOpen();
        java.lang.invoke.VarHandle.fullFence();
    }

    // ---- passive target -----------------------------------------------------------------------

    public void lock(int type, int rank) throws OscException {
        checkOpen();
        if (type != LOCK_EXCLUSIVE && type != LOCK_SHARED) {
            throw new OscException(OscError.LOCKTYPE, "lock type " + type + " is neither MPI.LOCK_EXCLUSIVE nor"
                    + " MPI.LOCK_SHARED");
        }
        if (rank == PROC_NULL) {
            return;
        }
        checkRank(rank);
        if (locked[rank] != 0 || lockedAll) {
            throw new OscException(OscError.SYNC, "rank " + rank + " is locked already (unlock it first)");
        }
        leaveUnusedFence("lock");
        if (accessGroup != null) {
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

    /** A fence opens an epoch that a lock may end only if no operation used it (as Open MPI's osc/rdma). */
    private void leaveUnusedFence(String call) throws OscException {
        if (fenceOpen && fenceUsed) {
            throw new OscException(OscError.SYNC, call + " while the epoch opened by fence is in use (end it with"
                    + " fence(MPI.MODE_NOSUCCEED))");
        }
        fenceOpen = false;
    }

    public void unlock(int rank) throws OscException {
        checkOpen();
        if (rank == PROC_NULL) {
            return;
        }
        checkRank(rank);
        if (locked[rank] == 0) {
            throw new OscException(OscError.SYNC, "rank " + rank + " is not locked");
        }
        release(rank);
        locked[rank] = 0;
    }

    private void release(int rank) {
        waitUntil(() -> locallyComplete(rank));
        if (rank == me) {
            target.locks.release(me);
            return;
        }
        unanswered[rank] = 0;
        long expected = unlocksDone[rank] + 1;
        target.send(rank, Control.of(Control.UNLOCK, 0, issued[rank]));
        waitUntil(() -> unlocksDone[rank] >= expected);
    }

    public void lockAll() throws OscException {
        checkOpen();
        if (lockedAll || anyLock()) {
            throw new OscException(OscError.SYNC, "lockAll while a lock is held");
        }
        leaveUnusedFence("lockAll");
        if (accessGroup != null) {
            throw new OscException(OscError.SYNC, "lockAll during an access epoch opened by start");
        }
        for (int r = 0; r < size; r++) {
            acquire(LOCK_SHARED, r);
        }
        lockedAll = true;
    }

    public void unlockAll() throws OscException {
        checkOpen();
        if (!lockedAll) {
            throw new OscException(OscError.SYNC, "unlockAll without lockAll");
        }
        for (int r = 0; r < size; r++) {
            release(r);
        }
        lockedAll = false;
    }

    // ---- active target ------------------------------------------------------------------------

    /** Collective: completes the epoch before it and, unless {@code MODE_NOSUCCEED}, opens the next. */
    public void fence(int assertion) throws OscException {
        checkOpen();
        if (anyLock() || accessGroup != null || exposureGroup != null) {
            throw new OscException(OscError.SYNC, "fence during a " + (anyLock() ? "passive-target epoch (unlock first)"
                    : "post/start epoch (complete and wait first)"));
        }
        exchangeRound(Control.FENCE);
        fenceOpen = (assertion & MODE_NOSUCCEED) == 0;
        if (fenceOpen && (assertion & MODE_NOPRECEDE) == 0) {
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
     * every operation before it.
     */
    private void exchangeRound(int kind) {
        waitUntil(this::allLocallyComplete);
        long round = ++rounds;
        for (int r = 0; r < size; r++) {
            if (r != me) {
                MemorySegment message = Control.of(kind, round, issued[r]);
                target.send(r, message);
            }
        }
        waitUntil(() -> target.roundDone(round));
        Arrays.fill(unanswered, 0);
    }

    /** Opens an access epoch to the ranks of {@code group} once each has posted. */
    public void start(int[] group) throws OscException {
        checkOpen();
        for (int r : group) {
            checkRank(r);
        }
        if (accessGroup != null || anyLock()) {
            throw new OscException(OscError.SYNC, "start while an access epoch is open (" + (anyLock() ? "a lock"
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
    public void complete() throws OscException {
        checkOpen();
        if (accessGroup == null) {
            throw new OscException(OscError.SYNC, "complete without start");
        }
        for (int r : accessGroup) {
            waitUntil(() -> locallyComplete(r));
            if (r == me) {
                target.completesSeen[me]++;
            } else {
                target.send(r, Control.of(Control.COMPLETE, 0, issued[r]));
                unanswered[r] = 0;
            }
        }
        accessGroup = null;
    }

    /** Opens an exposure epoch to the ranks of {@code group}: tells each it may start. */
    public void post(int[] group) throws OscException {
        checkOpen();
        for (int r : group) {
            checkRank(r);
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
    public void waitExposure() throws OscException {
        checkExposure("waitFor");
        waitUntil(this::exposureDone);
        endExposure();
    }

    /** As {@link #waitExposure}, without waiting: true (and the epoch ended) if it is done. */
    public boolean testExposure() throws OscException {
        checkExposure("test");
        env.progress().progress();
        if (!exposureDone()) {
            return false;
        }
        endExposure();
        return true;
    }

    private void checkExposure(String call) throws OscException {
        checkOpen();
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

    // ---- the end ------------------------------------------------------------------------------

    /** Collective: waits until no rank uses the window any more, then stops its target side. */
    public void free() throws OscException {
        checkOpen();
        if (anyLock() || accessGroup != null || exposureGroup != null) {
            throw new OscException(OscError.SYNC, "free during an epoch (unlock, complete or wait first)");
        }
        exchangeRound(Control.FREE);
        waitUntil(() -> !target.sending());
        target.stop();
        registration.close();
        freed = true;
    }

    public boolean freed() {
        return freed;
    }

    public long bytes() {
        return memory.byteSize();
    }

    @Override
    public String toString() {
        return "window of " + memory.byteSize() + " bytes at rank " + me + " of " + size + " (" + Arrays.stream(endpoints)
                .map(e -> e == null ? "-" : e.module().componentName()).toList() + ")";
    }
}
