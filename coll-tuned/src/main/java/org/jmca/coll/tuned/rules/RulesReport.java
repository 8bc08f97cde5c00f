package org.jmca.coll.tuned.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Rules tables and decisions in words, as {@code jmca-coll-rules} prints them. */
final class RulesReport {
    private RulesReport() {
    }

    /** The whole table, or one collective of it: one line per collective, section and rule. */
    static List<String> table(RulesTable table, Optional<TunedCollective> only) {
        List<String> lines = new ArrayList<>();
        lines.add("rules table " + table.source() + ": " + table.collectives().size() + " collective"
                + (table.collectives().size() == 1 ? "" : "s"));
        List<Collective> shown = only.<List<Collective>>map(List::of).orElseGet(() -> List.copyOf(table.collectives()));
        for (Collective collective : shown) {
            lines.add(heading(collective));
            List<Section> sections = table.sections(collective);
            if (sections.isEmpty()) {
                lines.add("  no rules: fixed rules decide");
            }
            for (Section section : sections) {
                lines.add("  communicator size " + range(section.commSizeMin(), section.commSizeMax(), Section.UNBOUNDED, "")
                        + distribution(section.distribution()) + "   [" + section.origin() + "]");
                if (section.rules().isEmpty()) {
                    lines.add("    no rules: fixed rules decide");
                }
                List<String> ranges = section.rules().stream()
                        .map(r -> "message " + range(r.msgSizeMin(), r.msgSizeMax(), Rule.UNBOUNDED, " B")).toList();
                int width = ranges.stream().mapToInt(String::length).max().orElse(0);
                for (int i = 0; i < ranges.size(); i++) {
                    Rule rule = section.rules().get(i);
                    lines.add("    " + pad(ranges.get(i), width) + "  ->  " + outcome(collective, rule)
                            + "   [" + rule.origin() + "]");
                }
            }
        }
        return lines;
    }

    /**
     * "allreduce  comm size 8  message 1024 B  ->  algorithm 4 (ring), ...   [rules.conf:9]".
     *
     * @param nameWidth the width of the name column, to line up the decisions of several collectives
     */
    static String decision(RulesTable table, TunedCollective collective, int commSize, long messageSize,
                           RankDistribution layout, int nameWidth) {
        long looked = collective.ignoresMessageSize() ? 0 : messageSize;
        Optional<Rule> rule = table.lookup(collective, commSize, looked, layout);
        String call = pad(collective.configName(), nameWidth) + "  comm size " + commSize + distribution(layout)
                + "  message " + looked + " B" + (looked != messageSize ? " (Open MPI always looks up 0 for "
                + collective.configName() + ")" : "");
        return call + "  ->  " + rule.map(r -> outcome(collective, r) + "   [" + r.origin() + "]")
                .orElse("no rule: fixed rules decide");
    }

    /** "algorithm 4 (ring), segment size 0, fan-in/out 0, max requests 0", or algorithm 0's fall-back. */
    static String outcome(Collective collective, Rule rule) {
        if (rule.algorithm() == 0) {
            return "algorithm 0 (" + TunedCollective.IGNORE + "): fixed rules decide";
        }
        String name = collective instanceof TunedCollective tuned ? " (" + tuned.algorithmName(rule.algorithm()) + ")"
                : "";
        return "algorithm " + rule.algorithm() + name + ", segment size " + rule.segmentSize() + ", fan-in/out "
                + rule.faninout() + ", max requests " + rule.maxRequests();
    }

    private static String heading(Collective collective) {
        return switch (collective) {
            case TunedCollective tuned -> tuned.label() + ", message size = " + tuned.messageSizeFormula();
            case UntunedCollective untuned -> untuned.label()
                    + ": stored only, coll/tuned has no algorithms for it and never consults these rules";
        };
    }

    private static String range(long min, long max, long unbounded, String unit) {
        if (max == unbounded) {
            return min + unit + " and up";
        }
        return min == max ? min + unit : min + unit + " to " + max + unit;
    }

    private static String distribution(RankDistribution distribution) {
        return distribution == RankDistribution.ANY ? "" : " (" + distribution.configName() + ")";
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
