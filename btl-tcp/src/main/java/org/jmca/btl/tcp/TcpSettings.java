package org.jmca.btl.tcp;

import org.jmca.mca.btl.BtlProperties;

/**
 * btl/tcp's settings, read from its parameters once at module creation.
 *
 * @param properties          the common BTL parameters' values (exclusivity, eager limit, fragment size...)
 * @param maxQueuedBytes      bytes queued per peer before sends are refused (back-pressure)
 * @param connectTimeoutNanos how long a connection may take before the peer counts as unreachable
 */
record TcpSettings(BtlProperties properties, long maxQueuedBytes, long connectTimeoutNanos) {
    long maxSendSize() {
        return properties.maxSendSize();
    }
}
