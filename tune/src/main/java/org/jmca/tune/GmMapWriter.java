package org.jmca.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.jmca.coll.gm.GmSelection;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * The decisions as a coll/gm selection map (HOCON, {@code coll_gm_selection_map}). A map has no
 * "leave it to the defaults": a collective it names loses the shipped map's rules. So where no
 * algorithm beat the shipped map beyond the noise, the shipped map's own choice at that point is
 * written. Each measured communicator size gives rules from that size (the smallest from 2), and
 * a run of equal choices one rule from its first message size (0 for the first run).
 */
final class GmMapWriter {
    private GmMapWriter() {
    }

    /** One rule of the map: from {@code ranks} ranks and {@code bytes} bytes. */
    record MapRule(int ranks, long bytes, GmSelection.Choice choice) {
    }

    static List<MapRule> rules(TunedCollective collective, SortedMap<Integer, List<Decisions.Point>> byRanks) {
        List<MapRule> rules = new ArrayList<>();
        boolean firstSection = true;
        for (Map.Entry<Integer, List<Decisions.Point>> entry : byRanks.entrySet()) {
            int ranks = entry.getKey();
            GmSelection.Choice previous = null;
            long start = 0;
            for (Decisions.Point p : entry.getValue()) {
                GmSelection.Choice choice = p.choice().isFixed()
                        ? GmSelection.shipped(collective.function(), ranks, p.size())
                        : new GmSelection.Choice(Component.GM.algorithmName(collective, p.choice().algorithm()),
                                p.choice().segmentSize(), 0);
                if (!choice.equals(previous)) {
                    rules.add(new MapRule(firstSection ? 2 : ranks, previous == null ? 0 : start, choice));
                    previous = choice;
                }
                start = p.size() + 1;
            }
            firstSection = false;
        }
        return rules;
    }

    static String write(Map<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> decisions,
                        List<String> header) {
        StringBuilder out = new StringBuilder();
        header.forEach(line -> out.append("# ").append(line).append('\n'));
        decisions.forEach((collective, byRanks) -> {
            List<MapRule> rules = rules(collective, byRanks);
            if (rules.isEmpty()) {
                return;
            }
            out.append(collective.function().id()).append(" = [\n");
            for (MapRule rule : rules) {
                out.append("  { comm_size_min = ").append(rule.ranks()).append(", msg_size_min = ").append(rule.bytes())
                        .append(", alg = ").append(rule.choice().algorithm()).append(", segment = ")
                        .append(rule.choice().segment());
                if (rule.choice().fanout() > 0) {
                    out.append(", fanout = ").append(rule.choice().fanout());
                }
                out.append(" }\n");
            }
            out.append("]\n");
        });
        return out.toString();
    }
}
