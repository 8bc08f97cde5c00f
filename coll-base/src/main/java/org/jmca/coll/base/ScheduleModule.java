package org.jmca.coll.base;

import java.util.function.Supplier;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;

/** A coll module whose functions are algorithms of the catalogue, chosen per call by a subclass. */
public abstract class ScheduleModule implements CollModule {

    /**
     * An algorithm with the knobs to run it with, and why it was chosen: words for the verbose
     * report, made only when it is printed, as choosing runs on every call.
     */
    public record Choice(Algorithm algorithm, Tuning tuning, Supplier<String> reason) {
    }

    protected final CollCommunicator communicator;
    private final String component;
    /** The schedule blocking calls are built into, reused from call to call. */
    private Schedule blocking;

    protected ScheduleModule(String component, CollCommunicator communicator) {
        this.component = component;
        this.communicator = communicator;
    }

    /** The algorithm for this call. */
    protected abstract Choice choose(CollFunction function, CollCall call);

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        return build(new Schedule(communicator, call.tag()), function, call).start();
    }

    /** Builds blocking calls into one kept schedule (a fresh one should the kept one be left in flight). */
    @Override
    public CollRequest startBlocking(CollFunction function, CollCall call) {
        Schedule schedule = blocking == null || blocking.inFlight() ? new Schedule(communicator, call.tag())
                : blocking.reset(call.tag());
        blocking = schedule;
        return build(schedule, function, call).start();
    }

    private Schedule build(Schedule schedule, CollFunction function, CollCall call) {
        Choice choice = choose(function, call);
        if (communicator.verbosity() >= 2) {
            communicator.log("coll:" + component + ": " + function.id() + " of " + messageBytes(function, call)
                    + " B on " + communicator.size() + " ranks: algorithm " + choice.algorithm() + " ["
                    + choice.reason().get() + "]");
        }
        choice.algorithm().steps().add(schedule, call, choice.tuning());
        return schedule;
    }

    /** The bytes one rank contributes (a rank's block for the gathers and scatters). */
    public static long messageBytes(CollFunction function, CollCall call) {
        return switch (function) {
            case BARRIER -> 0;
            case GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTER -> call.bytes(totalCount(call));
            default -> call.bytes(call.count());
        };
    }

    /** The sum of a vector call's per-rank counts (0 without counts). */
    public static long totalCount(CollCall call) {
        long total = 0;
        if (call.counts() != null) {
            for (int c : call.counts()) {
                total += c;
            }
        }
        return total;
    }

    /** The algorithm of {@code function} with Open MPI's number {@code number}. */
    protected static Algorithm algorithm(CollFunction function, int number) {
        return Algorithms.find(function, number)
                .orElseThrow(() -> new IllegalArgumentException(function.id() + " has no algorithm " + number));
    }
}
