package org.jmca.btl.verbs;

import java.util.Comparator;

/**
 * How a connection is chosen for tear-down when a new one would pass {@code btl_verbs_max_conn}
 * (the ACTS paper's two methods).
 */
public enum VictimPolicy {
    /** The least recently used connection. */
    LRU("lru", Comparator.comparingLong(VerbsEndpoint::lastUsed)),
    /**
     * One LRU queue per number of earlier tear-downs of the peer; the victim is the tail of the
     * queue with the fewest: peers torn down often (the ones the application keeps coming back
     * to) are kept longer.
     */
    LRU_M("lru-m", Comparator.comparingInt(VerbsEndpoint::tearDowns).thenComparingLong(VerbsEndpoint::lastUsed));

    final String parameterValue;
    final Comparator<VerbsEndpoint> order;

    VictimPolicy(String parameterValue, Comparator<VerbsEndpoint> order) {
        this.parameterValue = parameterValue;
        this.order = order;
    }

    static VictimPolicy parse(String value, String source) {
        for (VictimPolicy policy : values()) {
            if (policy.parameterValue.equals(value)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("btl_verbs_conn_policy=" + value + " (" + source
                + ") is not one of lru, lru-m");
    }
}
