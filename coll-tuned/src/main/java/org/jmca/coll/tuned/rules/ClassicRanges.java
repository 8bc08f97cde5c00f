package org.jmca.coll.tuned.rules;

import java.util.List;

/**
 * Turns the ascending keys of a classic file (communicator sizes, or message sizes) into the
 * ranges of a first-match table, so that one lookup gives Open MPI's classic answer: the last
 * key at or below the value, and the first key for values below every key. Key j thus covers
 * key j .. key j+1 - 1; the first key also covers everything below it, the last everything above.
 *
 * <p>For message sizes the first key is always 0 (Open MPI requires it), so "below the first
 * key" happens only for communicator sizes.
 */
final class ClassicRanges {
    private ClassicRanges() {
    }

    static long lower(List<Long> ascendingKeys, int j) {
        return j == 0 ? 0 : ascendingKeys.get(j);
    }

    static long upper(List<Long> ascendingKeys, int j, long unbounded) {
        return j == ascendingKeys.size() - 1 ? unbounded : ascendingKeys.get(j + 1) - 1;
    }
}
