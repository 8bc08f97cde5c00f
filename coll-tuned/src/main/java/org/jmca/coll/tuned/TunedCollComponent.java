package org.jmca.coll.tuned;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.jmca.coll.tuned.rules.RulesFiles;
import org.jmca.coll.tuned.rules.RulesTable;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.param.ValueSource;

/**
 * {@code coll/tuned}: every algorithm of coll/base, chosen per call by a forced parameter, else
 * a rules table, else the fixed rules. Serves intra-communicators of two ranks or more, at
 * priority 30 as Open MPI's; gatherv and scatterv stay with coll/basic.
 *
 * <p>Unlike Open MPI, forced algorithms and the rules file work without
 * {@code coll_tuned_use_dynamic_rules} (it defaults to true); set to false it turns both off,
 * and says so when either is set.
 */
public final class TunedCollComponent implements CollComponent {
    private Param<Boolean> useDynamicRules;
    private Param<String> rulesFile;
    private final Map<TunedCollective, ForcedAlgorithm> forced = new EnumMap<>(TunedCollective.class);
    private RulesTable table;
    private boolean tableRead;
    private boolean warned;

    @Override
    public String name() {
        return "tuned";
    }

    @Override
    public int defaultPriority() {
        return 30;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        useDynamicRules = registrar.register(ParameterSpec.builder("use_dynamic_rules", ParamType.BOOL, true)
                .help("Whether forced algorithms (coll_tuned_<coll>_algorithm) and the rules file decide before the"
                        + " fixed rules. True by default in JMCA (Open MPI needs it set).")
                .level(6)
                .build());
        rulesFile = registrar.register(ParameterSpec.builder("dynamic_rules_filename", ParamType.STRING, "")
                .help("A rules table: Open MPI's classic rules file or the HOCON/JSON form. An error in it stops"
                        + " MPI_Init with the file, line and reason.")
                .level(6)
                .build());
        Param<Integer> treeFanout = registrar.register(ParameterSpec.builder("init_tree_fanout", ParamType.INT, 4)
                .help("Default fan-out of tree algorithms.")
                .level(6)
                .build());
        registrar.register(ParameterSpec.builder("init_chain_fanout", ParamType.INT, 4)
                .help("Default number of chains of chain algorithms.")
                .level(6)
                .build());
        for (TunedCollective collective : TunedCollective.values()) {
            forced.put(collective, new ForcedAlgorithm(collective, registrar, treeFanout.get()));
        }
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        if (communicator.size() < 2) {
            return CollOffer.declined("serves communicators of 2 ranks or more; this one has " + communicator.size());
        }
        boolean dynamic = useDynamicRules.get();
        if (!dynamic) {
            warnIfIgnored();
        }
        String own = communicator.hint(useDynamicRules.name());
        if (own != null) { // this communicator's own say: a JMCA extension, as coll_tuned_<coll> is
            try {
                dynamic &= ParamType.BOOL.parse(own);
            } catch (IllegalArgumentException e) {
                throw new McaException("info key " + useDynamicRules.name() + "=" + own + " of " + communicator.name()
                        + ": " + e.getMessage());
            }
        }
        Map<TunedCollective, ForcedAlgorithm.Snapshot> snapshot = new EnumMap<>(TunedCollective.class);
        forced.forEach((collective, params) -> snapshot.put(collective, params.snapshot(communicator)));
        return CollOffer.of(new TunedModule(communicator, dynamic ? snapshot : Map.of(), dynamic ? table() : null));
    }

    /** The rules table, read once; a malformed file throws (file, line, reason) at the first communicator. */
    private synchronized RulesTable table() {
        if (!tableRead) {
            String file = rulesFile.get().strip();
            table = file.isEmpty() ? null : RulesFiles.read(Path.of(file));
            tableRead = true;
        }
        return table;
    }

    private synchronized void warnIfIgnored() {
        if (warned) {
            return;
        }
        warned = true;
        StringBuilder ignored = new StringBuilder();
        if (rulesFile.source().kind() != ValueSource.Kind.DEFAULT && !rulesFile.get().isBlank()) {
            ignored.append(" coll_tuned_dynamic_rules_filename=").append(rulesFile.get());
        }
        forced.values().stream().map(ForcedAlgorithm::algorithmParam)
                .filter(p -> p.get() != 0)
                .forEach(p -> ignored.append(' ').append(p.name()).append('=').append(p.formatted()));
        if (!ignored.isEmpty()) {
            System.err.println("jmca: warning: coll_tuned_use_dynamic_rules is false (" + useDynamicRules.source()
                    .kind().label() + "), so these settings are ignored:" + ignored);
        }
    }
}
