package org.jmca.mca.btl;

import java.util.Set;

/**
 * What a BTL module offers, used to rank modules per peer.
 *
 * <p>Exclusivity decides first: per peer only the reachable modules with the highest
 * exclusivity are kept (self and thread 65536 &gt; sm 65535 &gt; verbs, gm 1024 &gt; tcp 100; self reaches
 * only its own rank and thread never does). Among those,
 * eager messages take the lowest latency and large messages are striped by bandwidth.
 *
 * @param exclusivity    higher hides lower for the same peer
 * @param latencyNanos   expected one-way latency of a small message
 * @param bandwidthMbps  expected bandwidth in megabits per second
 * @param eagerLimit     largest message sent without a rendezvous, in bytes
 * @param maxSendSize    largest fragment the module sends at once, in bytes
 * @param flags          which operations it supports
 */
public record BtlProperties(int exclusivity, long latencyNanos, long bandwidthMbps, long eagerLimit,
                            long maxSendSize, Set<Flag> flags) {

    /**
     * Operations a module supports. {@code HEAP}: its GET and PUT reach the Java heap too, not only
     * native memory (its peers are threads of this JVM), so a message between arrays moves with
     * one copy.
     */
    public enum Flag { SEND, PUT, GET, ATOMIC, HEAP }

    public BtlProperties {
        flags = Set.copyOf(flags);
        if (eagerLimit <= 0 || maxSendSize < eagerLimit) {
            throw new IllegalArgumentException("eagerLimit=" + eagerLimit + " must be positive and at most maxSendSize="
                    + maxSendSize);
        }
    }

    /** The same properties with other operations (a module that learns at start what it can do). */
    public BtlProperties withFlags(Set<Flag> other) {
        return new BtlProperties(exclusivity, latencyNanos, bandwidthMbps, eagerLimit, maxSendSize, other);
    }
}
