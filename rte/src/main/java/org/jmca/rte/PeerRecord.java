package org.jmca.rte;

import java.util.Map;

/**
 * What one process published at the exchange.
 *
 * @param rank     its rank
 * @param hostname its host
 * @param values   the keys and values it published
 */
public record PeerRecord(int rank, String hostname, Map<String, String> values) {
    public PeerRecord {
        values = Map.copyOf(values);
    }
}
