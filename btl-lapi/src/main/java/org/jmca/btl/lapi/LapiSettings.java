package org.jmca.btl.lapi;

import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.LapiMode;

/**
 * How a LAPI context runs, from btl/lapi's parameters.
 *
 * @param mode           how the dispatcher is progressed
 * @param packetSize     bytes of a packet, its 40-byte header included
 * @param ringCapacity   bytes of each inbound ring (a power of two, room for at least 4 packets)
 * @param tickMillis     period of the retransmission/timeout tick
 * @param timeoutSeconds an operation not answered in this time fails the task
 * @param wire           how tasks on other hosts (or, with {@link Wire#SOCKET}, all tasks) are reached
 */
public record LapiSettings(LapiMode mode, int packetSize, int ringCapacity, int tickMillis, int timeoutSeconds,
                           Wire wire) {
    /** The largest active-message user header ({@code MAX_UHDR_SZ}). */
    static final int MAX_USER_HEADER = 1024;

    /** How other tasks are reached. */
    public enum Wire {
        /** Tasks of this host through shared memory, others over TCP. */
        AUTO,
        /** Every task over TCP, to exercise the wire on one host. */
        SOCKET
    }

    public LapiSettings {
        SharedRing.checkCapacity(ringCapacity);
        if (packetSize < Packet.HEADER + MAX_USER_HEADER + 64 || packetSize > ringCapacity / 4) {
            throw new IllegalArgumentException("packetSize=" + packetSize + " must be between "
                    + (Packet.HEADER + MAX_USER_HEADER + 64) + " and ringCapacity/4=" + ringCapacity / 4);
        }
        if (tickMillis < 1 || timeoutSeconds < 1) {
            throw new IllegalArgumentException("tickMillis=" + tickMillis + " and timeoutSeconds=" + timeoutSeconds
                    + " must be positive");
        }
    }

    /** Payload bytes a packet carries. */
    int packetPayload() {
        return packetSize - Packet.HEADER;
    }
}
