package org.jmca.common.verbs;

import java.util.Optional;

/**
 * This process's verbs device, as {@code btl/verbs} opened it, for components that send
 * unreliable datagrams and multicast on it directly ({@code coll/mcast}): each opens a UD queue
 * pair of its own.
 */
public interface UdDevice {

    /** Opens a UD queue pair of its own, with {@code receiveBuffers} receives kept posted. */
    UdPort open(int receiveBuffers);

    /** What the device is, for reports: "soft0 (software verbs device), LID 3". */
    String description();

    /** The device btl/verbs runs in this process, if it runs. */
    static Optional<UdDevice> published() {
        return Optional.ofNullable(Published.device);
    }

    /** Called by btl/verbs once its device is open. */
    static void publish(UdDevice device) {
        Published.device = device;
    }

    /** Called by btl/verbs when it finalizes. */
    static void withdraw(UdDevice device) {
        if (Published.device == device) {
            Published.device = null;
        }
    }

    /** Holds the published device (an interface cannot hold mutable state itself). */
    final class Published {
        private static volatile UdDevice device;

        private Published() {
        }
    }
}
