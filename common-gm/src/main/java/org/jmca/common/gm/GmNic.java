package org.jmca.common.gm;

import java.util.Optional;

/**
 * This process's GM NIC, as {@code btl/gm} found it, for components that write on GM directly
 * ({@code coll/gm}): they open a port of their own on it, as the CollGM paper's component did,
 * and reach the job's ranks by the node ids it gives.
 */
public interface GmNic {

    /** The GM node id of job rank {@code jobRank}, or -1 if it cannot be reached over GM from here. */
    int nodeOf(int jobRank);

    /**
     * Opens port {@code port} ({@code gm_open}) with its own tokens. Port {@code p} of this NIC
     * talks to the ports {@code p} of the other nodes; a peer's port may open later than this
     * one, and sends to it fail with {@link GmStatus#SEND_TARGET_PORT_CLOSED} until it does.
     */
    GmPort open(int port, int sendTokens, int receiveTokens);

    /** What the NIC is, for reports: "emulated GM NIC (node 3 of 8)". */
    String description();

    /** The NIC btl/gm runs in this process, if it runs. */
    static Optional<GmNic> published() {
        return Optional.ofNullable(Published.nic);
    }

    /** Called by btl/gm once its port is open. */
    static void publish(GmNic nic) {
        Published.nic = nic;
    }

    /** Called by btl/gm when it finalizes. */
    static void withdraw(GmNic nic) {
        if (Published.nic == nic) {
            Published.nic = null;
        }
    }

    /** Holds the published NIC (an interface cannot hold mutable state itself). */
    final class Published {
        private static volatile GmNic nic;

        private Published() {
        }
    }
}
