package org.jmca.tune;

import java.util.Map;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * One way to run a collective: an algorithm of coll/tuned forced with its segment size, or the
 * fixed rules' own choice (algorithm 0, what a job without a table runs).
 *
 * @param algorithm   Open MPI's algorithm number; 0 for the fixed rules
 * @param segmentSize the segment size in bytes; 0 for none
 */
record Config(int algorithm, long segmentSize) {
    static final Config FIXED = new Config(0, 0);
    /** In a verification: a job run with the rules table (no algorithm forced). */
    static final Config TABLE = new Config(-1, 0);

    /** The key in the measurements file: "3", or "2:65536" with a segment size. */
    String key() {
        return segmentSize == 0 ? Integer.toString(algorithm) : algorithm + ":" + segmentSize;
    }

    static Config parse(String key) {
        int colon = key.indexOf(':');
        return colon < 0 ? new Config(Integer.parseInt(key), 0)
                : new Config(Integer.parseInt(key.substring(0, colon)), Long.parseLong(key.substring(colon + 1)));
    }

    boolean isFixed() {
        return algorithm == 0;
    }

    /** "fixed rules", "3 recursive_doubling", "2 chain, 64k segments". */
    String label(TunedCollective collective) {
        if (isFixed()) {
            return "fixed rules";
        }
        if (this.equals(TABLE)) {
            return "the table";
        }
        String name = algorithm + " " + collective.algorithmName(algorithm);
        return segmentSize == 0 ? name : name + ", " + Sizes.format(segmentSize) + " segments";
    }

    /** The info key and value that force this configuration on a communicator (none for the fixed rules). */
    Map<String, String> hints(TunedCollective collective) {
        return algorithm > 0 ? Map.of("coll_tuned_" + collective.configName(), algorithm + ":" + segmentSize)
                : Map.of();
    }
}
