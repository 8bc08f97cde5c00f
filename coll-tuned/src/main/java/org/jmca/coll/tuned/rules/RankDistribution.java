package org.jmca.coll.tuned.rules;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a communicator's ranks are spread over nodes: the {@code comm_rank_distribution} of a
 * JSON rules section (Open MPI 6). A section restricted to {@link #SINGLE_NODE} or
 * {@link #ONE_PER_NODE} applies only to communicators of that layout; an {@link #ANY} section
 * applies to every communicator.
 */
public enum RankDistribution {
    /** Unrestricted section; as a communicator layout: ranks on several nodes, or not known. */
    ANY("any"),
    /** At most one rank per node. */
    ONE_PER_NODE("one-per-node"),
    /** All ranks on one node. */
    SINGLE_NODE("single-node");

    private final String configName;

    RankDistribution(String configName) {
        this.configName = configName;
    }

    /** The spelling in rules files: "any", "one-per-node", "single-node". */
    public String configName() {
        return configName;
    }

    /** Whether a section with this distribution applies to a communicator of {@code layout}. */
    public boolean admits(RankDistribution layout) {
        return this == ANY || this == layout;
    }

    /** By its rules-file spelling, exactly, as Open MPI compares it. */
    public static Optional<RankDistribution> byConfigName(String name) {
        return Arrays.stream(values()).filter(d -> d.configName.equals(name)).findFirst();
    }

    static String choices() {
        return Arrays.stream(values()).map(RankDistribution::configName).collect(Collectors.joining(", "));
    }
}
