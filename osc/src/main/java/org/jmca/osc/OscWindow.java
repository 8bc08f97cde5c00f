package org.jmca.osc;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * Each origin counts the active messages it sent each target ({@link IssuedOperations}); a fence,
 * complete, unlock or flush carries that count, and the target answers once it has carried out as
 * many. As in Open MPI's osc/rdma, active-target synchronization ({@link ActiveTarget}) and
 * passive-target synchronization ({@link PassiveTarget}) are apart: this class keeps the window
 * and its communication calls, checks each access against the epochs they keep, and delegates
 * the synchronization calls to them.
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
    private final IssuedOperations issued;

    // ---- epochs ----
    private final ActiveTarget active;
    private final PassiveTarget passive;
    private boolean freed;

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
        this.issued = new IssuedOperations(size);
        this.target = new TargetSide(this, env, memory);
        this.active = new ActiveTarget(env, target, issued);
        this.passive = new PassiveTarget(env, target, issued, active);
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
        passive.granted(from);
    }

    void unlocked(int from) {
        passive.unlocked(from);
    }

    void flushed(int from) {
        passive.flushed(from);
    }

    void posted(int from) {
        active.posted(from);
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
        issued.add(rank, parts, reply != null);
        env.counters().activeMessages++;
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
        active.accessed();
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
        checkRank(rank, size);
    }

    static void checkRank(int rank, int size) throws OscException {
        if (rank < 0 || rank >= size) {
            throw new OscException(OscError.RANK, "rank " + rank + " is not in the window's group of " + size);
        }
    }

    private boolean canAccess(int rank) {
        return active.canAccess(rank) || passive.holds(rank);
    }

    // ---- passive target: PassiveTarget ---------------------------------------------------------

    public void lock(int type, int rank) throws OscException {
        checkOpen();
        passive.lock(type, rank);
    }

    public void unlock(int rank) throws OscException {
        checkOpen();
        passive.unlock(rank);
    }

    public void lockAll() throws OscException {
        checkOpen();
        passive.lockAll();
    }

    public void unlockAll() throws OscException {
        checkOpen();
        passive.unlockAll();
    }

    /** Waits until this rank's operations to {@code rank} are complete here (MPI_Win_flush_local). */
    public void flushLocal(int rank) throws OscException {
        checkOpen();
        passive.flushLocal(rank);
    }

    public void flushLocalAll() throws OscException {
        checkOpen();
        passive.flushLocalAll();
    }

    /** Waits until this rank's operations to {@code rank} are complete there too (MPI_Win_flush). */
    public void flush(int rank) throws OscException {
        checkOpen();
        passive.flush(rank);
    }

    public void flushAll() throws OscException {
        checkOpen();
        passive.flushAll();
    }

    /** Memory is shared with the window's own stores: nothing to do but order this thread's accesses. */
    public void sync() throws OscException {
        checkOpen();
        java.lang.invoke.VarHandle.fullFence();
    }

    // ---- active target: ActiveTarget -----------------------------------------------------------

    /** Collective: completes the epoch before it and, unless {@code MODE_NOSUCCEED}, opens the next. */
    public void fence(int assertion) throws OscException {
        checkOpen();
        active.fence(assertion, passive.anyLock());
    }

    /** Opens an access epoch to the ranks of {@code group} once each has posted. */
    public void start(int[] group) throws OscException {
        checkOpen();
        active.start(group, passive.anyLock());
    }

    /** Ends the access epoch of {@link #start}: every target learns how many operations to expect. */
    public void complete() throws OscException {
        checkOpen();
        active.complete();
    }

    /** Opens an exposure epoch to the ranks of {@code group}: tells each it may start. */
    public void post(int[] group) throws OscException {
        checkOpen();
        active.post(group);
    }

    /** Waits until every rank of the posted group has completed and its operations are carried out. */
    public void waitExposure() throws OscException {
        checkOpen();
        active.waitExposure();
    }

    /** As {@link #waitExposure}, without waiting: true (and the epoch ended) if it is done. */
    public boolean testExposure() throws OscException {
        checkOpen();
        return active.testExposure();
    }

    // ---- the end ------------------------------------------------------------------------------

    /** Collective: waits until no rank uses the window any more, then stops its target side. */
    public void free() throws OscException {
        checkOpen();
        if (passive.anyLock() || active.postStartOpen()) {
            throw new OscException(OscError.SYNC, "free during an epoch (unlock, complete or wait first)");
        }
        active.exchangeRound(Control.FREE);
        env.progress().waitUntil(() -> !target.sending());
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
