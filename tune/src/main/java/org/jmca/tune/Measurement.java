package org.jmca.tune;

import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * One measured point: the average latency of a collective over the ranks, OSU's figure, in one
 * round; or why it could not be measured.
 *
 * @param size   the bytes each rank contributes, as OSU's tables show them
 * @param micros the latency in microseconds; NaN when {@code error} says why there is none
 */
record Measurement(int round, TunedCollective collective, int ranks, Config config, long size, double micros,
                   String error) {

    boolean failed() {
        return error != null && !error.isEmpty();
    }

    /** What identifies the point, whatever the round: to find what a resumed run still lacks. */
    record Point(TunedCollective collective, int ranks, Config config, long size) {
    }

    Point point() {
        return new Point(collective, ranks, config, size);
    }
}
