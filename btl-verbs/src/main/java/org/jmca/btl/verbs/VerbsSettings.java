package org.jmca.btl.verbs;

import org.jmca.mca.btl.BtlProperties;

/**
 * The verbs module's tunables, from the {@code btl_verbs_*} parameters.
 *
 * @param properties       the common BTL parameters' values; the largest fragment is the size of every send and
 *                         receive buffer
 * @param receiveBuffers   receive buffers pre-posted per connection: the peer's credits
 * @param sendBuffers      registered send buffers of the module, shared by all connections
 * @param maxConnections   connections kept at most (0: no limit); more are torn down (ACTS)
 * @param policy           which connection is torn down
 * @param registrationCache keep registrations for reuse
 * @param registrationCacheBytes idle registered bytes kept at most
 * @param pipelineBlock    register a large receive buffer in blocks of this size, each read as soon as it is registered (0: all at once)
 * @param cmRetryNanos     how long a connection-manager message waits for its answer before it is sent again
 * @param ringBytes        software device: bytes of each inbound ring
 * @param verbose          print every connection's state changes and connection-manager message
 */
record VerbsSettings(BtlProperties properties, int receiveBuffers, int sendBuffers, int maxConnections,
                     VictimPolicy policy, boolean registrationCache, long registrationCacheBytes, long pipelineBlock,
                     long cmRetryNanos, int ringBytes, boolean verbose) {
    int maxSendSize() {
        return (int) properties.maxSendSize();
    }
}
