package org.jmca.coll.tuned;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jmca.coll.base.Algorithm;
import org.jmca.coll.base.ScheduleModule;
import org.jmca.coll.base.Tuning;
import org.jmca.coll.tuned.rules.Rule;
import org.jmca.coll.tuned.rules.RulesTable;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;

/**
 * coll/tuned for one communicator: the decision order of Open MPI's tuned component, per call.
 * A forced or tabled algorithm that cannot serve the call (two_proc on four ranks, ring with a
 * non-commutative operation) gives way to the fixed rules, and the verbose report says why.
 */
final class TunedModule extends ScheduleModule {
    /** Each function's collective, looked up once rather than on every call. */
    private static final Map<CollFunction, TunedCollective> COLLECTIVES = new EnumMap<>(CollFunction.class);

    static {
        for (TunedCollective collective : TunedCollective.values()) {
            COLLECTIVES.put(collective.function(), collective);
        }
    }

    private final Map<TunedCollective, ForcedAlgorithm.Snapshot> forced;
    private final RulesTable table;
    private final LastFixed[] lastFixed = new LastFixed[CollFunction.values().length];
    /** The rules table's decision, remembered per function for the last message size, as the fixed rules' is. */
    private final LastTabled[] lastTabled = new LastTabled[CollFunction.values().length];

    TunedModule(CollCommunicator communicator, Map<TunedCollective, ForcedAlgorithm.Snapshot> forced,
                RulesTable table) {
        super("tuned", communicator);
        this.forced = forced;
        this.table = table;
    }

    @Override
    public Set<CollFunction> provides() {
        return EnumSet.copyOf(COLLECTIVES.keySet());
    }

    @Override
    public String describe(CollFunction function) {
        TunedCollective collective = COLLECTIVES.get(function);
        ForcedAlgorithm.Snapshot snapshot = forced.get(collective);
        if (snapshot != null && snapshot.algorithm() != 0) {
            return "forced " + algorithm(function, snapshot.algorithm()) + " by " + snapshot.source();
        }
        if (table != null && !table.sections(collective).isEmpty()) {
            return "rules file " + table.source() + ", else fixed rules";
        }
        return "fixed rules";
    }

    @Override
    protected Choice choose(CollFunction function, CollCall call) {
        TunedCollective collective = COLLECTIVES.get(function);
        int size = communicator.size();
        String passedOver = "";
        ForcedAlgorithm.Snapshot snapshot = forced.get(collective);
        if (snapshot != null && snapshot.algorithm() != 0) {
            Algorithm algorithm = algorithm(function, snapshot.algorithm());
            String unsuitable = algorithm.unsuitableFor(size, call);
            if (unsuitable == null) {
                return new Choice(algorithm, snapshot.tuning(), () -> "forced by " + snapshot.source());
            }
            passedOver = "forced " + algorithm + " passed over: " + unsuitable + "; ";
        }
        if (table != null) {
            long messageSize = collective.messageSize(call.elementSize(), countForRules(function, call), size);
            boolean commutative = call.op() == null || call.op().commutative();
            LastTabled last = lastTabled[function.ordinal()];
            if (passedOver.isEmpty() && last != null && last.messageSize == messageSize
                    && last.commutative == commutative) {
                // the lookup below (streams, an Optional) made calls of up to 1 KiB 18% slower with a
                // table than without, where the table left them to the fixed rules (jmca-tune --verify)
                if (last.choice != null) {
                    return last.choice;
                }
                return fixedChoice(function, size, messageBytes(function, call), commutative);
            }
            Optional<Rule> rule = table.lookup(collective, size, messageSize);
            if (rule.isPresent() && rule.get().algorithm() != 0) {
                Rule r = rule.get();
                Algorithm algorithm = algorithm(function, r.algorithm());
                String unsuitable = algorithm.unsuitableFor(size, call);
                if (unsuitable == null) {
                    Tuning tuning = new Tuning(r.segmentSize(), r.faninout() > 0 ? r.faninout() : Tuning.DEFAULT.treeFanout(),
                            r.faninout() > 0 ? r.faninout() : Tuning.DEFAULT.chainFanout(), r.maxRequests());
                    String before = passedOver;
                    Choice choice = new Choice(algorithm, tuning, () -> before + "rules file " + r.origin());
                    if (passedOver.isEmpty()) {
                        lastTabled[function.ordinal()] = new LastTabled(messageSize, commutative, choice);
                    }
                    return choice;
                }
                passedOver += "rule at " + r.origin() + " passed over: " + unsuitable + "; ";
            } else if (passedOver.isEmpty()) { // no rule, or algorithm 0: the fixed rules decide
                lastTabled[function.ordinal()] = new LastTabled(messageSize, commutative, null);
            }
        }
        boolean commutative = call.op() == null || call.op().commutative();
        long bytes = messageBytes(function, call);
        if (passedOver.isEmpty()) {
            return fixedChoice(function, size, bytes, commutative);
        }
        return decide(function, size, bytes, commutative, passedOver);
    }

    /**
     * The fixed rules' choice, remembered per function for the last message size: applications
     * repeat the same call, and deciding anew allocates on every one.
     */
    private Choice fixedChoice(CollFunction function, int size, long bytes, boolean commutative) {
        LastFixed last = lastFixed[function.ordinal()];
        if (last != null && last.bytes == bytes && last.commutative == commutative) {
            return last.choice;
        }
        Choice choice = decide(function, size, bytes, commutative, "");
        lastFixed[function.ordinal()] = new LastFixed(bytes, commutative, choice);
        return choice;
    }

    private static Choice decide(CollFunction function, int size, long bytes, boolean commutative, String before) {
        FixedRules.Decision fixed = FixedRules.decide(function, size, bytes, commutative, Tuning.DEFAULT);
        return new Choice(algorithm(function, fixed.algorithm()), fixed.tuning(),
                () -> before + "fixed rules: " + fixed.why().describe(size, bytes));
    }

    private record LastFixed(long bytes, boolean commutative, Choice choice) {
    }

    /** A table's decision for a message size: its choice, or null where it leaves the call to the fixed rules. */
    private record LastTabled(long messageSize, boolean commutative, Choice choice) {
    }

    /** The count Open MPI's message-size formula takes for this collective (see TunedCollective#messageSize). */
    private static long countForRules(CollFunction function, CollCall call) {
        return switch (function) {
            case ALLGATHERV, REDUCE_SCATTER -> totalCount(call);
            default -> call.count();
        };
    }
}
