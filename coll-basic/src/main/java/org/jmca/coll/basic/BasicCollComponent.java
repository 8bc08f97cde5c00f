package org.jmca.coll.basic;

import static org.jmca.mca.coll.CollFunction.*;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.jmca.coll.base.ScheduleModule;
import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code coll/basic}: a linear and a logarithmic version of every collective, the first up to
 * {@code coll_basic_crossover} ranks. Low priority (10): the reference every other component
 * falls back on.
 */
public final class BasicCollComponent implements CollComponent {
    /** Algorithm numbers: {linear, logarithmic}; the logarithmic reduction for non-commutative ops in third place. */
    private static final Map<CollFunction, int[]> ALGORITHMS = Map.ofEntries(
            Map.entry(BARRIER, new int[] {1, 3}),
            Map.entry(BCAST, new int[] {1, 6}),
            Map.entry(REDUCE, new int[] {1, 5, 6}),
            Map.entry(ALLREDUCE, new int[] {1, 2}),
            Map.entry(GATHER, new int[] {1, 2}),
            Map.entry(GATHERV, new int[] {1, 1}),
            Map.entry(SCATTER, new int[] {1, 2}),
            Map.entry(SCATTERV, new int[] {1, 1}),
            Map.entry(ALLGATHER, new int[] {1, 2}),
            Map.entry(ALLGATHERV, new int[] {1, 2}),
            Map.entry(ALLTOALL, new int[] {1, 1}),
            Map.entry(ALLTOALLV, new int[] {1, 1}),
            Map.entry(REDUCE_SCATTER, new int[] {1, 2, 1}),
            Map.entry(REDUCE_SCATTER_BLOCK, new int[] {1, 2}),
            Map.entry(SCAN, new int[] {1, 2}),
            Map.entry(EXSCAN, new int[] {1, 2}));

    private Param<Integer> crossover;

    @Override
    public String name() {
        return "basic";
    }

    @Override
    public int defaultPriority() {
        return 10;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        crossover = registrar.register(ParameterSpec.builder("crossover", ParamType.INT, 4)
                .help("Communicators up to this many ranks use the linear algorithms; larger ones the logarithmic.")
                .level(6)
                .build());
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        boolean linear = communicator.size() <= crossover.get();
        return CollOffer.of(new ScheduleModule(name(), communicator) {
            @Override
            public Set<CollFunction> provides() {
                return EnumSet.allOf(CollFunction.class);
            }

            @Override
            protected Choice choose(CollFunction function, CollCall call) {
                int[] choices = ALGORITHMS.get(function);
                int pick = linear ? 0 : call.op() != null && !call.op().commutative() && choices.length > 2 ? 2 : 1;
                return new Choice(algorithm(function, choices[pick]), Tuning.DEFAULT,
                        linear ? () -> "linear up to coll_basic_crossover"
                                : () -> "logarithmic above coll_basic_crossover");
            }

            @Override
            public String describe(CollFunction function) {
                return (linear ? "linear: " : "logarithmic: ")
                        + algorithm(function, ALGORITHMS.get(function)[linear ? 0 : 1]).name();
            }
        });
    }
}
