package org.jmca.tune;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.jmca.coll.base.Algorithm;
import org.jmca.coll.base.Algorithms;
import org.jmca.coll.gm.GmSelection;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * The component whose choices a run tunes: coll/tuned (a rules table) or coll/gm (its selection
 * map). A {@link Config}'s algorithm is a number from 1 in the component's list of algorithms; 0
 * is the component's own choice (the fixed rules, the shipped map).
 */
enum Component {
    TUNED("tuned", "fixed rules", "coll_tuned_dynamic_rules_filename"),
    GM("gm", "shipped map", "coll_gm_selection_map");

    /**
     * The algorithms that take a segment size, by name (coll-base's Algorithms: the bcast trees and
     * chains, the segmented reductions); coll/gm's own broadcasts take one too.
     */
    private static final Map<TunedCollective, Set<String>> SEGMENTED = Map.of(
            TunedCollective.BCAST, Set.of("chain", "pipeline", "split_binary_tree", "binary_tree", "binomial", "knomial"),
            TunedCollective.REDUCE, Set.of("chain", "pipeline", "binary", "binomial", "in-order_binary"),
            TunedCollective.ALLREDUCE, Set.of("nonoverlapping", "segmented_ring"));

    final String id;
    /** What the component decides by itself, where no table or map rule is given. */
    final String ownChoice;
    /** The parameter that hands the component a table or map file. */
    final String tableParameter;

    Component(String id, String ownChoice, String tableParameter) {
        this.id = id;
        this.ownChoice = ownChoice;
        this.tableParameter = tableParameter;
    }

    static Component of(String id) {
        for (Component c : values()) {
            if (c.id.equals(id)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--component " + id + ": jmca-tune tunes tuned (a rules table) or gm"
                + " (coll/gm's selection map)");
    }

    /** The parameter that puts the component above the others, so that it serves every call. */
    String priorityParameter() {
        return "coll_" + id + "_priority";
    }

    /** The algorithms of {@code collective}, algorithm 1 first. */
    List<String> algorithms(TunedCollective collective) {
        return this == TUNED
                ? IntStream.rangeClosed(1, collective.algorithmCount()).mapToObj(collective::algorithmName).toList()
                : GmSelection.algorithms(collective.function());
    }

    String algorithmName(TunedCollective collective, int algorithm) {
        return algorithms(collective).get(algorithm - 1);
    }

    boolean segmented(TunedCollective collective, String name) {
        return SEGMENTED.getOrDefault(collective, Set.of()).contains(name)
                || this == GM && GmSelection.ownBroadcast(collective.function(), name);
    }

    /** "fixed rules", "the table", "3 recursive_doubling", "pipeline, 64k segments". */
    String label(TunedCollective collective, Config config) {
        if (config.isFixed()) {
            return ownChoice;
        }
        if (config.equals(Config.TABLE)) {
            return this == TUNED ? "the table" : "the map";
        }
        String name = algorithmName(collective, config.algorithm());
        String algorithm = this == TUNED ? config.algorithm() + " " + name : name;
        return config.segmentSize() == 0 ? algorithm
                : algorithm + ", " + Sizes.format(config.segmentSize()) + " segments";
    }

    /**
     * The info keys that force {@code config} on a communicator: an algorithm; coll/tuned's fixed
     * rules even in a job given a table; nothing for the table or coll/gm's shipped map.
     */
    Map<String, String> hints(TunedCollective collective, Config config) {
        if (this == TUNED && config.isFixed()) {
            return Map.of("coll_tuned_use_dynamic_rules", "false"); // the fixed rules, whatever table the job has
        }
        if (config.algorithm() <= 0) {
            return Map.of();
        }
        String key = this == TUNED ? "coll_tuned_" + collective.configName() : GmSelection.hintKey(collective.function());
        String algorithm = this == TUNED ? Integer.toString(config.algorithm())
                : algorithmName(collective, config.algorithm());
        return Map.of(key, algorithm + ":" + config.segmentSize());
    }

    /** Why {@code config} cannot run on {@code ranks} ranks (an algorithm for two only), or null. */
    String unsuitable(TunedCollective collective, Config config, int ranks) {
        if (config.algorithm() <= 0) {
            return null;
        }
        String name = algorithmName(collective, config.algorithm());
        return Algorithms.of(collective.function()).stream().filter(a -> a.name().equals(name))
                .filter(Algorithm::onlyTwoRanks).filter(a -> ranks != 2)
                .map(a -> a.name() + " needs exactly 2 ranks").findFirst().orElse(null);
    }
}
