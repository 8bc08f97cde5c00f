package org.jmca.coll.tuned.rules;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A collective that an Open MPI rules file may name: by number in the classic format, by name in
 * the JSON format. Open MPI accepts every id below {@link #COUNT} (its {@code COLLCOUNT}), but
 * coll/tuned has algorithms only for the {@link TunedCollective}s; the others are
 * {@link UntunedCollective}s, whose rules are stored and never consulted.
 */
public sealed interface Collective permits TunedCollective, UntunedCollective {

    /** Open MPI's {@code COLLCOUNT}: collective ids run from 0 to COUNT - 1. */
    int COUNT = 22;

    /** Open MPI's collective id ({@code COLLTYPE_T}), as classic rules files use it. */
    int id();

    /** The lower-case name, as JSON rules files and {@code coll_tuned_<name>_algorithm} use it. */
    String configName();

    /** Whether a rule of this collective may name algorithm {@code n}; 0 ("ignore") always may. */
    boolean isAlgorithm(int n);

    /**
     * The algorithm a rule names, by number or by name (any case).
     *
     * @throws IllegalArgumentException naming the valid algorithms
     */
    int algorithmNumber(String nameOrNumber);

    /** The valid algorithms in words, for error messages: "0..6 (1 basic_linear, ...)". */
    String algorithmChoices();

    /** "allreduce (collective 2)", the way messages name a collective. */
    default String label() {
        return configName() + " (collective " + id() + ")";
    }

    /** Every collective a rules file may name, in id order. */
    static List<Collective> all() {
        return Stream.concat(Arrays.stream(TunedCollective.values()), Arrays.stream(UntunedCollective.values()))
                .map(Collective.class::cast)
                .sorted(Comparator.comparingInt(Collective::id))
                .toList();
    }

    static Optional<Collective> byId(int id) {
        return all().stream().filter(c -> c.id() == id).findFirst();
    }

    /** By exact name: Open MPI compares names case-sensitively ("use all lowercase"). */
    static Optional<Collective> byConfigName(String name) {
        return all().stream().filter(c -> c.configName().equals(name)).findFirst();
    }

    /** "0 allgather, 1 allgatherv, ..." for messages that list the valid ids. */
    static String idList() {
        return all().stream().map(c -> c.id() + " " + c.configName()).collect(Collectors.joining(", "));
    }

    /** "allgather, allgatherv, ..." for messages that list the valid names. */
    static String nameList() {
        return all().stream().map(Collective::configName).collect(Collectors.joining(", "));
    }
}
