package org.jmca.coll.tuned.rules;

import java.util.Locale;

/**
 * Collectives that Open MPI's rules readers accept (ids below {@code COLLCOUNT}) but coll/tuned
 * has no algorithms for. Open MPI stores their rules and never consults them, and so do we: a
 * file naming them reads as it does in Open MPI, and {@link RulesTable#lookup} cannot be asked
 * about them. Their algorithm numbers are stored as written, since nothing gives them meaning.
 */
public enum UntunedCollective implements Collective {
    ALLTOALLW(5),
    GATHERV(10),
    SCATTERV(16),
    NEIGHBOR_ALLGATHER(17),
    NEIGHBOR_ALLGATHERV(18),
    NEIGHBOR_ALLTOALL(19),
    NEIGHBOR_ALLTOALLV(20),
    NEIGHBOR_ALLTOALLW(21);

    private final int id;

    UntunedCollective(int id) {
        this.id = id;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean isAlgorithm(int n) {
        return n >= 0;
    }

    @Override
    public int algorithmNumber(String nameOrNumber) {
        String wanted = nameOrNumber.strip();
        if (!wanted.isEmpty() && wanted.length() <= 9 && wanted.chars().allMatch(Character::isDigit)) {
            return Integer.parseInt(wanted);
        }
        throw new IllegalArgumentException("'" + nameOrNumber + "' is not an algorithm of " + configName()
                + ": expected " + algorithmChoices());
    }

    @Override
    public String algorithmChoices() {
        return "a number 0 or more (coll/tuned has no named algorithms for " + configName()
                + "; its rules are stored, never consulted)";
    }
}
