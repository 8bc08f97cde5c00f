package org.jmca.coll.tuned;

import java.util.ArrayList;
import java.util.List;
import org.jmca.coll.base.Tuning;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * The parameters that force one collective's algorithm: {@code coll_tuned_<coll>_algorithm}
 * (a number or name; 0 or "ignore" lets the rules decide) and its knobs
 * {@code _algorithm_segmentsize}, {@code _algorithm_tree_fanout}, {@code _algorithm_chain_fanout}
 * and {@code _algorithm_max_requests}, Open MPI's names.
 */
final class ForcedAlgorithm {
    /** A snapshot taken when a communicator is made, as Open MPI takes it. */
    record Snapshot(int algorithm, Tuning tuning, String source) {
    }

    private final TunedCollective collective;
    private final Param<Integer> algorithm;
    private final Param<Long> segmentSize;
    private final Param<Integer> treeFanout;
    private final Param<Integer> chainFanout;
    private final Param<Integer> maxRequests;

    ForcedAlgorithm(TunedCollective collective, ParameterRegistrar registrar, int defaultFanout) {
        this.collective = collective;
        String base = collective.configName() + "_algorithm";
        List<ParamType.Enumerator> names = new ArrayList<>();
        names.add(new ParamType.Enumerator(0, "ignore"));
        for (int n = 1; n <= collective.algorithmCount(); n++) {
            names.add(new ParamType.Enumerator(n, collective.algorithmName(n)));
        }
        algorithm = registrar.register(ParameterSpec.builder(base, ParamType.numbered(names), 0)
                .help("Forces the " + collective.configName() + " algorithm (a number or a name); ignore lets the"
                        + " rules table, then the fixed rules decide.")
                .level(5)
                .build());
        segmentSize = registrar.register(ParameterSpec.builder(base + "_segmentsize", ParamType.SIZE, 0L)
                .help("Segment size of the forced " + collective.configName() + " algorithm; 0 for none.")
                .level(5)
                .build());
        treeFanout = registrar.register(ParameterSpec.builder(base + "_tree_fanout", ParamType.INT, defaultFanout)
                .help("Fan-out of the forced " + collective.configName() + " algorithm's tree.")
                .level(5)
                .build());
        chainFanout = registrar.register(ParameterSpec.builder(base + "_chain_fanout", ParamType.INT, defaultFanout)
                .help("Number of chains of the forced " + collective.configName() + " algorithm.")
                .level(5)
                .build());
        maxRequests = registrar.register(ParameterSpec.builder(base + "_max_requests", ParamType.INT, 0)
                .help("Exchanges in flight of the forced " + collective.configName() + " algorithm; 0 for no limit.")
                .level(5)
                .build());
    }

    TunedCollective collective() {
        return collective;
    }

    Param<Integer> algorithmParam() {
        return algorithm;
    }

    Snapshot snapshot() {
        return new Snapshot(algorithm.get(), new Tuning(segmentSize.get(), Math.max(2, treeFanout.get()),
                Math.max(1, chainFanout.get()), Math.max(0, maxRequests.get())),
                algorithm.name() + " (" + algorithm.source().kind().label()
                        + (algorithm.source().location().isEmpty() ? "" : " " + algorithm.source().location()) + ")");
    }
}
