package org.jmca.coll.tuned.rules;

import java.util.List;
import java.util.Objects;

/**
 * The rules for communicators of commSizeMin..commSizeMax ranks (both inclusive), tried in
 * order: the first rule whose message-size range holds the message applies.
 *
 * @param commSizeMin  the smallest communicator size
 * @param commSizeMax  the largest communicator size; Integer.MAX_VALUE for no bound
 * @param rules        the message-size rules, in file order
 * @param origin       "file:line" where the section starts
 * @param distribution the layouts of communicator the section applies to
 */
public record Section(int commSizeMin, int commSizeMax, List<Rule> rules, String origin,
                      RankDistribution distribution) {

    /** The bound that stands for "no upper bound". */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    public Section {
        rules = List.copyOf(rules);
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(distribution, "distribution");
    }

    /** A section for communicators of any layout, as every classic-format section is. */
    public Section(int commSizeMin, int commSizeMax, List<Rule> rules, String origin) {
        this(commSizeMin, commSizeMax, rules, origin, RankDistribution.ANY);
    }

    /** Whether the section applies to a communicator of {@code commSize} ranks laid out so. */
    public boolean covers(int commSize, RankDistribution layout) {
        return commSizeMin <= commSize && commSize <= commSizeMax && distribution.admits(layout);
    }
}
