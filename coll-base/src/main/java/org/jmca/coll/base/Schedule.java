package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 */
public final class Schedule implements CollRequest {
    private sealed interface Action permits Send, Receive, Local {
    }

    private record Send(MemorySegment data, int peer) implements Action {
    }

    private record Receive(MemorySegment buffer, int peer) implements Action {
    }

    private record Local(Runnable step) implements Action {
    }

    private final CollCommunicator communicator;
    private final int tag;
    private final List<List<Action>> rounds = new ArrayList<>();
    private List<Action> building = new ArrayList<>();
    private PmlRequest[] pending = new PmlRequest[4];
    private int pendingCount;
    private int nextRound;
    private boolean started;
    /** Set while a test runs: a test from a progress callback inside a send must not re-enter. */
    private boolean testing;

    public Schedule(CollCommunicator communicator, int tag) {
        this.communicator = communicator;
        this.tag = tag;
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
        building.add(new Send(data, peer));
        return this;
    }

    public Schedule recv(MemorySegment buffer, int peer) {
        building.add(new Receive(buffer, peer));
        return this;
    }

    /** A local step, run when its round starts, after the actions added before it. */
    public Schedule local(Runnable step) {
        building.add(new Local(step));
        return this;
    }

    public Schedule copy(MemorySegment from, MemorySegment to) {
        if (from.byteSize() > 0 && !from.equals(to)) {
            local(() -> MemorySegment.copy(from, 0, to, 0, from.byteSize()));
        }
        return this;
    }

    /** {@code inout = in op inout} for {@code count} elements. */
    public Schedule reduce(Reduction op, MemorySegment in, MemorySegment inout, int count) {
        if (count > 0) {
            local(() -> op.apply(in, inout, count));
        }
        return this;
    }

    /** Ends the current round: what is added next waits for this round's messages. */
    public Schedule round() {
        if (!building.isEmpty()) {
            rounds.add(building);
            building = new ArrayList<>();
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
        if (testing) {
            return false;
        }
        testing = true;
        try {
            return advance();
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
            pendingCount = 0;
            if (nextRound == rounds.size()) {
                return true;
            }
            runRound(rounds.get(nextRound));
            rounds.set(nextRound++, null);
        }
    }

    private void runRound(List<Action> actions) {
        for (Action action : actions) {
            switch (action) {
                case Local(Runnable step) -> step.run();
                case Send(MemorySegment data, int peer) -> add(communicator.isend(data, peer, tag));
                case Receive(MemorySegment buffer, int peer) -> add(communicator.irecv(buffer, peer, tag));
            }
        }
    }

    private void add(PmlRequest request) {
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
