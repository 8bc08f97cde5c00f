package org.jmca.mca.btl;

import java.util.Map;
import java.util.Objects;

/**
 * Another process of the job, as the wire-up describes it.
 *
 * @param rank      its rank in the job
 * @param hostname  its host
 * @param addresses what each of its BTL modules published, by key (see {@link BtlModule#localAddress()})
 */
public record Peer(int rank, String hostname, Map<String, String> addresses) {
    public Peer {
        Objects.requireNonNull(hostname, "hostname");
        addresses = Map.copyOf(addresses);
    }
}
