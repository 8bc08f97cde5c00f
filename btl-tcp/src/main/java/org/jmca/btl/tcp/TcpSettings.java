package org.jmca.btl.tcp;

/**
 * btl/tcp's settings, read from its parameters once at module creation.
 *
 * @param eagerLimit          largest message sent eagerly (header included)
 * @param maxSendSize         largest fragment
 * @param maxQueuedBytes      bytes queued per peer before sends are refused (back-pressure)
 * @param connectTimeoutNanos how long a connection may take before the peer counts as unreachable
 * @param exclusivity         rank against other BTLs reaching the same peer
 */
record TcpSettings(long eagerLimit, long maxSendSize, long maxQueuedBytes, long connectTimeoutNanos, int exclusivity) {
}
