package org.jmca.coll.tuned.rules;

import java.util.List;
import java.util.Map;

/**
 * Writes a rules table in the two formats {@link RulesFiles} reads, each with a header of
 * comment lines: Open MPI's classic format (version 2, with max requests) and its JSON format as
 * HOCON with algorithm names. What is written reads back as the same decisions: the sections of a
 * collective must follow one another in communicator size and each section's rules in message
 * size, from 0, without gaps, as a tuning run makes them.
 */
public final class RulesWriter {
    private RulesWriter() {
    }

    /** The classic format: the version marker first (Open MPI reads it only there), then the header. */
    public static String classic(RulesTable table, List<String> header) {
        StringBuilder out = new StringBuilder(ClassicRulesFile.VERSION_MARKER).append("2\n");
        header.forEach(line -> out.append("# ").append(line).append('\n'));
        out.append(table.collectives().size()).append(" # collectives\n");
        for (Map.Entry<Collective, List<Section>> entry : table.sections().entrySet()) {
            List<Section> sections = checked(entry.getKey(), entry.getValue());
            out.append(entry.getKey().id()).append(" # ").append(entry.getKey().configName()).append('\n');
            out.append(sections.size()).append(" # communicator sizes\n");
            for (Section section : sections) {
                out.append(section.commSizeMin()).append(" # ranks\n");
                out.append(section.rules().size()).append(" # message sizes\n");
                for (Rule rule : section.rules()) {
                    out.append(rule.msgSizeMin()).append(' ').append(rule.algorithm()).append(' ')
                            .append(rule.faninout()).append(' ').append(rule.segmentSize()).append(' ')
                            .append(rule.maxRequests()).append(" # ")
                            .append(algorithmName(entry.getKey(), rule.algorithm())).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** Open MPI's JSON format (version 3) as HOCON, algorithms by name, sizes in bytes. */
    public static String hocon(RulesTable table, List<String> header) {
        StringBuilder out = new StringBuilder();
        header.forEach(line -> out.append("# ").append(line).append('\n'));
        out.append("rule_file_version: ").append(HoconRulesFile.VERSION).append("\nmodule: tuned\ncollectives: {\n");
        for (Map.Entry<Collective, List<Section>> entry : table.sections().entrySet()) {
            out.append("  ").append(entry.getKey().configName()).append(": [\n");
            for (Section section : checked(entry.getKey(), entry.getValue())) {
                out.append("    { comm_size_min: ").append(section.commSizeMin()).append(", comm_size_max: ")
                        .append(bound(section.commSizeMax(), Section.UNBOUNDED)).append(", rules: [\n");
                for (Rule rule : section.rules()) {
                    out.append("        { msg_size_min: ").append(rule.msgSizeMin()).append(", msg_size_max: ")
                            .append(bound(rule.msgSizeMax(), Rule.UNBOUNDED)).append(", alg: ")
                            .append(algorithmName(entry.getKey(), rule.algorithm())).append(", faninout: ")
                            .append(rule.faninout()).append(", seg_size: ").append(rule.segmentSize())
                            .append(", reqs: ").append(rule.maxRequests()).append(" }\n");
                }
                out.append("    ] }\n");
            }
            out.append("  ]\n");
        }
        return out.append("}\n").toString();
    }

    private static String bound(long value, long unbounded) {
        return value == unbounded ? "\"inf\"" : Long.toString(value);
    }

    private static String algorithmName(Collective collective, int algorithm) {
        return collective instanceof TunedCollective tuned ? tuned.algorithmName(algorithm)
                : Integer.toString(algorithm);
    }

    /**
     * The sections, checked to be what the classic format can say: sizes that follow one another
     * (each section up to the next one's smallest size, the last unbounded) and rules likewise from 0.
     */
    private static List<Section> checked(Collective collective, List<Section> sections) {
        for (int i = 0; i < sections.size(); i++) {
            Section section = sections.get(i);
            int end = i + 1 < sections.size() ? sections.get(i + 1).commSizeMin() - 1 : Section.UNBOUNDED;
            if (section.commSizeMax() != end) {
                throw new IllegalArgumentException(collective.configName() + "'s section for " + section.commSizeMin()
                        + " ranks ends at " + section.commSizeMax() + ", not where the next begins (" + end + ")");
            }
            List<Rule> rules = section.rules();
            for (int r = 0; r < rules.size(); r++) {
                long start = r == 0 ? 0 : rules.get(r - 1).msgSizeMax() + 1;
                long last = r + 1 < rules.size() ? rules.get(r + 1).msgSizeMin() - 1 : Rule.UNBOUNDED;
                if (rules.get(r).msgSizeMin() != start || rules.get(r).msgSizeMax() != last) {
                    throw new IllegalArgumentException(collective.configName() + "'s rules for " + section.commSizeMin()
                            + " ranks leave a gap or overlap at rule " + (r + 1));
                }
            }
        }
        return sections;
    }
}
