package org.jmca.tune;

/**
 * One way to run a collective: an algorithm of the tuned component forced with its segment size,
 * or the component's own choice (algorithm 0, what a job without a table or map runs).
 *
 * @param algorithm   the algorithm's number in {@link Component#algorithms} (Open MPI's for
 *                    coll/tuned); 0 for the component's own choice
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
}
