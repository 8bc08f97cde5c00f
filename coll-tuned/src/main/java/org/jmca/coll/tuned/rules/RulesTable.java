package org.jmca.coll.tuned.rules;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A rules table as read from one file: per collective, its communicator-size sections in file
 * order. Both file formats come down to this one form, so one first-match {@link #lookup} gives
 * each format its Open MPI meaning (the classic reader turns its "last key at or below" into
 * ranges, see {@link ClassicRulesFile}).
 *
 * @param source   the file the table was read from
 * @param sections the sections of each collective the file names, in collective-id order
 */
public record RulesTable(Path source, Map<Collective, List<Section>> sections) {

    public RulesTable {
        Objects.requireNonNull(source, "source");
        Map<Collective, List<Section>> byId = new LinkedHashMap<>();
        sections.entrySet().stream()
                .sorted(Comparator.comparingInt(e -> e.getKey().id()))
                .forEach(e -> byId.put(e.getKey(), List.copyOf(e.getValue())));
        sections = Collections.unmodifiableMap(byId);
    }

    /** The collectives the file names, in id order. */
    public Set<Collective> collectives() {
        return sections.keySet();
    }

    /** The sections of a collective; empty when the file does not name it. */
    public List<Section> sections(Collective collective) {
        return sections.getOrDefault(collective, List.of());
    }

    /**
     * The rule for a call on a communicator whose layout is not known to be single-node or
     * one-per-node: sections restricted to those layouts are skipped.
     */
    public Optional<Rule> lookup(TunedCollective collective, int commSize, long messageSize) {
        return lookup(collective, commSize, messageSize, RankDistribution.ANY);
    }

    /**
     * The rule for a call: the first section that holds the communicator, then the first of its
     * rules that holds the message size. Empty when the collective is absent, no section holds
     * the communicator, or no rule of that section holds the message: as in Open MPI, a later
     * section is not tried once one is chosen. A rule of algorithm 0 is returned as it is.
     *
     * @param layout how the communicator's ranks are spread: {@link RankDistribution#ANY} for
     *               several nodes with several ranks, or not known
     */
    public Optional<Rule> lookup(TunedCollective collective, int commSize, long messageSize,
                                 RankDistribution layout) {
        return sections(collective).stream()
                .filter(section -> section.covers(commSize, layout))
                .findFirst()
                .flatMap(section -> section.rules().stream().filter(rule -> rule.covers(messageSize)).findFirst());
    }
}
