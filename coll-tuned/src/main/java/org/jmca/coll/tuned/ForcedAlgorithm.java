package org.jmca.coll.tuned;

import java.util.ArrayList;
import java.util.List;
import org.jmca.coll.base.Tuning;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * The parameters that force one collective's algorithm: {@code coll_tuned_<coll>_algorithm}
 * (a number or name; 0 or "ignore" lets the rules decide) and its knobs
 * {@code _algorithm_segmentsize}, {@code _algorithm_tree_fanout}, {@code _algorithm_chain_fanout}
 * and {@code _algorithm_max_requests}, Open MPI's names.
 *
 * <p>A communicator may force its own algorithm with an info key ({@link #hintKey()}): a JMCA
 * extension, with which one job measures every algorithm side by side ({@code jmca-tune}).
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

    /** The info key that forces this collective's algorithm on one communicator: {@code coll_tuned_allreduce}. */
    String hintKey() {
        return "coll_tuned_" + collective.configName();
    }

    /**
     * The snapshot for {@code communicator}: where it has the info key {@link #hintKey()}, whose
     * value is {@code ALGORITHM[:SEGMENT_SIZE]} ("ring", "6:64k"), that algorithm and segment size
     * with the other knobs from the parameters; the parameters' snapshot elsewhere. (MPI limits an
     * info key to 36 characters, too few for the parameters' own names.)
     *
     * @throws McaException naming the key, its value and the communicator, for a value that is wrong
     */
    Snapshot snapshot(CollCommunicator communicator) {
        Snapshot parameters = snapshot();
        String value = communicator.hint(hintKey());
        if (value == null) {
            return parameters;
        }
        String[] parts = value.split(":", 2);
        try {
            int number = algorithm.spec().type().parse(parts[0]);
            long segment = parts.length > 1 ? ParamType.SIZE.parse(parts[1]) : parameters.tuning().segmentSize();
            Tuning base = parameters.tuning();
            return new Snapshot(number, new Tuning(segment, base.treeFanout(), base.chainFanout(), base.maxRequests()),
                    "info key " + hintKey() + "=" + value + " of " + communicator.name());
        } catch (IllegalArgumentException e) {
            throw new McaException("info key " + hintKey() + "=" + value + " of " + communicator.name() + ": "
                    + e.getMessage() + " (the value is ALGORITHM[:SEGMENT_SIZE])");
        }
    }
}
