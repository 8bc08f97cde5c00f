package org.jmca.osc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * A window's target side, run by the progress engine: it takes the control messages of the
 * window (one wildcard receive always posted on the control context), carries out each origin's
 * operations in the order the origin issued them once their data is in, answers gets and
 * get-accumulates, keeps the window's lock, and counts what each origin's synchronization
 * waits for (operations done, completes, fence rounds). Notices meant for this rank as an
 * origin (lock granted, unlock and flush done, post) go to the {@link OscWindow}.
 *
 * <p>Threads: the thread that owns progress.
 */
final class TargetSide {
    private final OscWindow window;
    private final WindowEnvironment env;
    private final MemorySegment memory;
    final TargetLocks locks;
    private final MemorySegment controlBuffer = MemorySegment.ofArray(new long[Control.MAX / 8]);
    private PmlRequest controlReceive;
    /** Per origin: its operations, in the order it issued them. */
    private final ArrayDeque<Incoming>[] queues;
    /** Per origin: its operations carried out so far (cumulative, as the origins count what they send). */
    final long[] processed;
    private final List<Deferred> deferred = new ArrayList<>();
    private final List<PmlRequest> sends = new ArrayList<>();
    /** Per origin: COMPLETE messages seen and the count the latest carried. */
    final long[] completesSeen;
    final long[] completeCounts;
    /** Per fence or free round: the count each origin sent, and how many origins have. */
    private final Map<Long, long[]> roundCounts = new HashMap<>();
    private final Map<Long, Integer> roundArrivals = new HashMap<>();

    /** An operation of one origin, waiting for its data or its turn. */
    private static final class Incoming {
        int kind;
        long id;
        long disp;
        long length;
        int op;
        int type;
        int element;
        MemorySegment data;
        PmlRequest receive;

        boolean ready() {
            return receive == null || receive.isComplete();
        }
    }

    /** An UNLOCK or FLUSH waiting for the origin's operations to be carried out. */
    private record Deferred(int kind, int origin, long count) {
    }

    @SuppressWarnings("unchecked")
    TargetSide(OscWindow window, WindowEnvironment env, MemorySegment memory) {
        this.window = window;
        this.env = env;
        this.memory = memory;
        int size = env.size();
        this.queues = new ArrayDeque[size];
        for (int r = 0; r < size; r++) {
            queues[r] = new ArrayDeque<>();
        }
        this.processed = new long[size];
        this.completesSeen = new long[size];
        this.completeCounts = new long[size];
        this.locks = new TargetLocks(this::grant);
    }

    /** The window's lock is granted to {@code origin}: tell it (this rank's own origin side directly). */
    private void grant(int origin) {
        if (origin == env.rank()) {
            window.granted(origin);
        } else {
            send(origin, Control.of(Control.LOCK_GRANTED, 0, 0));
        }
    }

    void start() {
        postControlReceive();
    }

    private void postControlReceive() {
        controlReceive = env.pml().irecv(controlBuffer, PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, env.controlContext());
    }

    /** Sends a control message to rank {@code to} of the window. */
    void send(int to, MemorySegment message) {
        sends.add(env.pml().isend(message, env.jobRanks()[to], 0, env.controlContext(), SendMode.STANDARD));
    }

    /** One turn: messages in, operations out, answers owed; returns the events. */
    int progress() {
        int events = 0;
        while (controlReceive != null && controlReceive.isComplete()) {
            int origin = rankOf(controlReceive.status().source());
            onControl(origin, controlReceive.status().byteCount());
            postControlReceive();
            events++;
        }
        for (int origin = 0; origin < queues.length; origin++) {
            ArrayDeque<Incoming> queue = queues[origin];
            while (!queue.isEmpty() && queue.peekFirst().ready()) {
                carryOut(origin, queue.pollFirst());
                processed[origin]++;
                events++;
            }
        }
        events += answerDeferred();
        sends.removeIf(PmlRequest::isComplete);
        return events;
    }

    private int rankOf(int jobRank) {
        int[] jobRanks = env.jobRanks();
        for (int r = 0; r < jobRanks.length; r++) {
            if (jobRanks[r] == jobRank) {
                return r;
            }
        }
        throw new IllegalStateException("a window message from job rank " + jobRank + ", which is not in the window");
    }

    private long word(int at) {
        return controlBuffer.get(ValueLayout.JAVA_LONG, at);
    }

    private void onControl(int origin, long length) {
        int kind = (int) word(Control.KIND);
        switch (kind) {
            case Control.PUT, Control.GET, Control.ACCUMULATE, Control.GET_ACCUMULATE, Control.COMPARE_AND_SWAP ->
                    queues[origin].add(incoming(origin, kind, length));
            case Control.LOCK -> locks.request(origin, (int) word(Control.COUNT));
            case Control.UNLOCK, Control.FLUSH -> deferred.add(new Deferred(kind, origin, word(Control.COUNT)));
            case Control.COMPLETE -> {
                completesSeen[origin]++;
                completeCounts[origin] = word(Control.COUNT);
            }
            case Control.FENCE, Control.FREE -> {
                long round = word(Control.ID);
                roundCounts.computeIfAbsent(round, r -> new long[queues.length])[origin] = word(Control.COUNT);
                roundArrivals.merge(round, 1, Integer::sum);
            }
            case Control.LOCK_GRANTED -> window.granted(origin);
            case Control.UNLOCK_DONE -> window.unlocked(origin);
            case Control.FLUSH_DONE -> window.flushed(origin);
            case Control.POST -> window.posted(origin);
            default -> throw new IllegalStateException("unknown window message of kind " + kind + " from rank " + origin);
        }
    }

    private Incoming incoming(int origin, int kind, long length) {
        Incoming in = new Incoming();
        in.kind = kind;
        in.id = word(Control.ID);
        in.disp = word(Control.DISP);
        long bytes = word(Control.BYTES);
        long opType = word(Control.OP_TYPE);
        in.op = (int) (opType >> 32);
        in.type = (int) opType;
        in.element = (int) word(Control.ELEMENT);
        boolean answers = kind == Control.GET || kind == Control.GET_ACCUMULATE || kind == Control.COMPARE_AND_SWAP;
        in.length = answers ? word(Control.COUNT) : bytes; // the bytes of the window it touches
        if (in.disp < 0 || in.disp + in.length > memory.byteSize()) {
            throw new IllegalStateException("rank " + origin + " sent a window operation outside this window: "
                    + in.length + " bytes at " + in.disp + " of " + memory.byteSize());
        }
        if (bytes == 0) {
            return in;
        }
        if (word(Control.INLINE_FLAG) == 1) {
            in.data = MemorySegment.ofArray(new byte[(int) bytes]);
            MemorySegment.copy(controlBuffer, Control.HEADER, in.data, 0, Math.min(bytes, length - Control.HEADER));
        } else {
            in.data = kind == Control.PUT ? memory.asSlice(in.disp, bytes) : MemorySegment.ofArray(new byte[(int) bytes]);
            in.receive = env.pml().irecv(in.data, env.jobRanks()[origin], Control.dataTag(in.id), env.dataContext());
        }
        return in;
    }

    private void carryOut(int origin, Incoming in) {
        MemorySegment here = memory.asSlice(in.disp, in.length);
        switch (in.kind) {
            case Control.PUT -> {
                if (in.receive == null && in.data != null) {
                    MemorySegment.copy(in.data, 0, here, 0, in.data.byteSize());
                }
            }
            case Control.ACCUMULATE -> Accumulation.apply(env.reductions(), in.op, in.type, in.element, in.data, here);
            case Control.GET -> reply(origin, in.id, here);
            case Control.GET_ACCUMULATE -> {
                reply(origin, in.id, copy(here));
                if (in.data != null) {
                    Accumulation.apply(env.reductions(), in.op, in.type, in.element, in.data, here);
                }
            }
            case Control.COMPARE_AND_SWAP -> {
                MemorySegment old = copy(here);
                if (old.mismatch(in.data.asSlice(0, in.element)) == -1) {
                    MemorySegment.copy(in.data, in.element, here, 0, in.element);
                }
                reply(origin, in.id, old);
            }
            default -> throw new IllegalStateException("not an operation: " + in.kind);
        }
    }

    private static MemorySegment copy(MemorySegment from) {
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) from.byteSize()]);
        copy.copyFrom(from);
        return copy;
    }

    private void reply(int origin, long id, MemorySegment data) {
        sends.add(env.pml().isend(data, env.jobRanks()[origin], Control.replyTag(id), env.dataContext(),
                SendMode.STANDARD));
    }

    private int answerDeferred() {
        int events = 0;
        for (Iterator<Deferred> it = deferred.iterator(); it.hasNext(); ) {
            Deferred d = it.next();
            if (processed[d.origin()] < d.count()) {
                continue;
            }
            it.remove();
            if (d.kind() == Control.UNLOCK) {
                locks.release(d.origin());
                send(d.origin(), Control.of(Control.UNLOCK_DONE, 0, 0));
            } else {
                send(d.origin(), Control.of(Control.FLUSH_DONE, 0, 0));
            }
            events++;
        }
        return events;
    }

    /** True once every other rank's message of fence (or free) {@code round} is in, and their operations carried out. */
    boolean roundDone(long round) {
        int others = queues.length - 1;
        if (roundArrivals.getOrDefault(round, 0) < others) {
            return false;
        }
        long[] counts = roundCounts.get(round);
        for (int origin = 0; counts != null && origin < counts.length; origin++) {
            if (origin != env.rank() && processed[origin] < counts[origin]) {
                return false;
            }
        }
        roundArrivals.remove(round);
        roundCounts.remove(round);
        return true;
    }

    /** True while replies or notices this side sent are still on their way. */
    boolean sending() {
        sends.removeIf(PmlRequest::isComplete);
        return !sends.isEmpty();
    }

    /** Stops taking messages: cancels the wildcard receive (nothing may be in flight to this window any more). */
    void stop() {
        if (controlReceive != null && !controlReceive.isComplete()) {
            controlReceive.cancel();
        }
        controlReceive = null;
    }
}
