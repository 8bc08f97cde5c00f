package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;

/**
 * A collective algorithm as rounds of sends, receives and local steps (copies, reductions), in
 * the manner of libNBC's schedules. A round starts once every send and receive of the round
 * before it has completed; its actions then run in the order they were added, local steps at
 * once. One schedule serves the blocking call (started, then waited for) and the non-blocking one
 * (tested from the progress engine) alike.
 *
 * <p>Algorithms add actions and call {@link #round()} where a step depends on the messages
 * before it.
 *
 * <p>Actions are kept in parallel arrays rather than as objects, and a schedule can be
 * {@linkplain #reset reset} and built again: a blocking collective of a few bytes then allocates
 * no schedule at all, and the JIT compiles one small loop over four kinds of action instead of
 * calls through a lambda per step (which made the first thousand calls of an application slow).
 */
public final class Schedule implements CollRequest {
    private static final byte SEND = 0;
    private static final byte RECEIVE = 1;
    private static final byte COPY = 2;
    private static final byte REDUCE = 3;

    private final CollCommunicator communicator;
    private int tag;
    private byte[] kinds = new byte[8];
    /** Send: data; receive: buffer; copy: source; reduce: the operand {@code in}. */
    private MemorySegment[] first = new MemorySegment[8];
    /** Copy: target; reduce: {@code inout}. */
    private MemorySegment[] second = new MemorySegment[8];
    /** Send and receive: the peer; reduce: the element count. */
    private int[] numbers = new int[8];
    private Reduction[] ops = new Reduction[8];
    private int actions;
    /** Where each round ends: round r runs actions [roundEnds[r-1], roundEnds[r]). */
    private int[] roundEnds = new int[4];
    private int rounds;
    private PmlRequest[] pending = new PmlRequest[4];
    private int pendingCount;
    private int nextRound;
    private boolean started;
    private boolean complete;
    /** Set while a test runs: a test from a progress callback inside a send must not re-enter. */
    private boolean testing;

    public Schedule(CollCommunicator communicator, int tag) {
        this.communicator = communicator;
        this.tag = tag;
    }

    /** Empties this completed (or never started) schedule to build the next call's with {@code tag}. */
    public Schedule reset(int tag) {
        if (inFlight()) {
            throw new IllegalStateException("a schedule in flight cannot be reset");
        }
        release();
        this.tag = tag;
        actions = 0;
        rounds = 0;
        nextRound = 0;
        started = false;
        complete = false;
        return this;
    }

    /** Whether the schedule has been started and has not completed yet. */
    public boolean inFlight() {
        return started && !complete;
    }

    public CollCommunicator communicator() {
        return communicator;
    }

    public int rank() {
        return communicator.rank();
    }

    public int size() {
        return communicator.size();
    }

    public Schedule send(MemorySegment data, int peer) {
        return add(SEND, data, null, peer, null);
    }

    public Schedule recv(MemorySegment buffer, int peer) {
        return add(RECEIVE, buffer, null, peer, null);
    }

    public Schedule copy(MemorySegment from, MemorySegment to) {
        if (from.byteSize() > 0 && !from.equals(to)) {
            add(COPY, from, to, 0, null);
        }
        return this;
    }

    /** {@code inout = in op inout} for {@code count} elements. */
    public Schedule reduce(Reduction op, MemorySegment in, MemorySegment inout, int count) {
        if (count > 0) {
            add(REDUCE, in, inout, count, op);
        }
        return this;
    }

    private Schedule add(byte kind, MemorySegment a, MemorySegment b, int number, Reduction op) {
        if (actions == kinds.length) {
            int grown = actions * 2;
            kinds = Arrays.copyOf(kinds, grown);
            first = Arrays.copyOf(first, grown);
            second = Arrays.copyOf(second, grown);
            numbers = Arrays.copyOf(numbers, grown);
            ops = Arrays.copyOf(ops, grown);
        }
        kinds[actions] = kind;
        first[actions] = a;
        second[actions] = b;
        numbers[actions] = number;
        ops[actions] = op;
        actions++;
        return this;
    }

    /** Ends the current round: what is added next waits for this round's messages. */
    public Schedule round() {
        int begin = rounds == 0 ? 0 : roundEnds[rounds - 1];
        if (actions > begin) {
            if (rounds == roundEnds.length) {
                roundEnds = Arrays.copyOf(roundEnds, rounds * 2);
            }
            roundEnds[rounds++] = actions;
        }
        return this;
    }

    /** Starts the first round; returns this schedule as the request to test or wait for. */
    public Schedule start() {
        round();
        started = true;
        test();
        return this;
    }

    @Override
    public boolean test() {
        if (!started) {
            throw new IllegalStateException("the schedule has not been started");
        }
        if (complete) {
            return true;
        }
        if (testing) {
            return false;
        }
        testing = true;
        try {
            if (advance()) {
                complete = true;
                release();
            }
            return complete;
        } finally {
            testing = false;
        }
    }

    private boolean advance() {
        while (true) {
            for (int i = 0; i < pendingCount; i++) {
                if (!pending[i].isComplete()) {
                    return false;
                }
            }
            checkReceives();
            Arrays.fill(pending, 0, pendingCount, null);
            pendingCount = 0;
            if (nextRound == rounds) {
                return true;
            }
            runRound(nextRound == 0 ? 0 : roundEnds[nextRound - 1], roundEnds[nextRound]);
            nextRound++;
        }
    }

    /** Drops the references to the call's buffers, so a kept schedule holds no user memory. */
    private void release() {
        Arrays.fill(first, 0, actions, null);
        Arrays.fill(second, 0, actions, null);
        Arrays.fill(ops, 0, actions, null);
    }

    private void runRound(int begin, int end) {
        for (int a = begin; a < end; a++) {
            switch (kinds[a]) {
                case SEND -> addPending(communicator.isend(first[a], numbers[a], tag));
                case RECEIVE -> addPending(communicator.irecv(first[a], numbers[a], tag));
                case COPY -> MemorySegment.copy(first[a], 0, second[a], 0, first[a].byteSize());
                default -> ops[a].apply(first[a], second[a], numbers[a]);
            }
        }
    }

    private void addPending(PmlRequest request) {
        if (pendingCount == pending.length) {
            pending = Arrays.copyOf(pending, pendingCount * 2);
        }
        pending[pendingCount++] = request;
    }

    /** A longer message than expected means the ranks disagree on counts: an error, not silent loss. */
    private void checkReceives() {
        for (int i = 0; i < pendingCount; i++) {
            PmlStatus status = pending[i].status();
            if (status != null && status.truncated()) {
                throw new McaException("a collective message from job rank " + status.source() + " on "
                        + communicator.name() + " was longer than expected: the ranks passed different counts"
                        + " or datatypes to the same collective call");
            }
        }
    }

    /** Scratch memory of {@code bytes} bytes, 8-byte aligned so every element type fits. */
    public static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]).asSlice(0, bytes);
    }
}
