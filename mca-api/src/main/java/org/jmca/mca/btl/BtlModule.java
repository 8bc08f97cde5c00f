package org.jmca.mca.btl;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.jmca.mca.PerformanceVariable;

/**
 * One instance of a BTL: a network interface, the shared-memory segment, the loopback to
 * oneself. It moves fragments — a header and a payload, at most
 * {@link BtlProperties#maxSendSize()} bytes together — to peers, tagged with an active-message
 * tag, in order per peer.
 *
 * <p>Wire-up, in this order: {@link #localAddress()} is published to every peer; once every rank
 * has published, {@link #addPeers} makes endpoints for the peers the module can reach;
 * {@link #setReceiver} names the upcall for arriving fragments.
 *
 * <p>Threads: every method is called by the thread that owns progress (MPI's thread-funneled
 * model); none of them blocks.
 */
public interface BtlModule {

    /** The component this module belongs to ("tcp"). */
    String componentName();

    BtlProperties properties();

    /** What peers need to reach this module (e.g. "tcp.addresses" → "10.0.0.5:40123"); keys start with the component name. */
    Map<String, String> localAddress();

    /**
     * Makes endpoints for the peers this module can reach.
     *
     * @param peers every process of the job, this one included
     * @return one entry per peer, in the same order: its endpoint, or null when this module cannot reach it
     */
    List<BtlEndpoint> addPeers(List<Peer> peers);

    /**
     * Makes endpoints for another job's processes ({@link Bridge}); their ranks are the indices
     * the bridge's peers carry.
     *
     * @return one entry per bridged peer, in order: its endpoint, or null when this module cannot reach it
     */
    default List<BtlEndpoint> addBridgedPeers(Bridge bridge) {
        return java.util.Collections.nCopies(bridge.peers().size(), null);
    }

    /** Names the upcall for arriving fragments; set once, before the first send. */
    void setReceiver(BtlReceiver receiver);

    /**
     * Sends one fragment: the header then the payload. The module copies or transmits both
     * before it returns, so the caller may reuse them at once.
     *
     * @param to      an endpoint of this module
     * @param tag     the active-message tag the receiver's upcall gets
     * @param header  bytes the layer above interprets
     * @param payload data bytes (may be empty); header and payload together at most
     *                {@link BtlProperties#maxSendSize()}
     * @return false when the module cannot take the fragment now (back-pressure): try again after progress
     */
    boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload);

    /**
     * Sends one fragment whose header is 16 bytes, given as two words (in the host's byte order,
     * {@code header0} first): the layer above's most common header, that of a small eager
     * message. A module may store the words straight into its fragment instead of copying them
     * from a buffer; by default they go through {@link #send}.
     */
    default boolean send(BtlEndpoint to, byte tag, long header0, long header1, MemorySegment payload) {
        return send(to, tag, MemorySegment.ofArray(new long[] {header0, header1}), payload);
    }

    /**
     * True if this module can read {@code bytes} bytes straight out of a peer's native memory with
     * {@link #get} (one copy instead of two) — modules with {@link BtlProperties.Flag#GET}.
     */
    default boolean canGet(long bytes) {
        return false;
    }

    /** What {@link #exposeForGet} returns when peers cannot read the memory. */
    long NOT_EXPOSED = -1;

    /**
     * Makes {@code data} (native memory, or any memory for a module with
     * {@link BtlProperties.Flag#HEAP}) readable by the peers' {@link #get} until
     * {@link #unexpose}, and returns the key they must pass to it (a transport that needs none,
     * such as shared memory, returns 0), or {@link #NOT_EXPOSED} if it cannot (registration
     * failed). A transport with registered memory registers it here.
     */
    default long exposeForGet(MemorySegment data) {
        return 0;
    }

    /** The memory exposed under {@code key} will not be read any more. */
    default void unexpose(long key) {
    }

    /**
     * Reads {@code local.byteSize()} bytes at {@code remoteAddress} in the peer's memory, exposed
     * there under {@code remoteKey}, into {@code local}, which must be native memory (any memory for
     * a module with {@link BtlProperties.Flag#HEAP}, whose key alone names the peer's memory);
     * returns when the bytes are there.
     *
     * @return false if it cannot read from this peer now (the caller then asks the sender for
     *         the bytes instead)
     * @throws UnsupportedOperationException if {@link #canGet} says no
     */
    default boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
        throw new UnsupportedOperationException(componentName() + " cannot read a peer's memory");
    }

    /**
     * True if this module can write {@code bytes} bytes straight into a peer's native memory with
     * {@link #put} — modules with {@link BtlProperties.Flag#PUT}. The layer above uses it when the
     * receiver's buffer is native but the sender's data cannot be read by the receiver (RPUT).
     */
    default boolean canPut(long bytes) {
        return false;
    }

    /**
     * Makes {@code data} (native memory) writable by the peers' {@link #put} until
     * {@link #unexpose}, and returns the key they must pass to it, or {@link #NOT_EXPOSED}.
     */
    default long exposeForPut(MemorySegment data) {
        return NOT_EXPOSED;
    }

    /**
     * Writes {@code local} (native or heap memory) into the peer's memory at {@code remoteAddress},
     * exposed there under {@code remoteKey}; returns when the bytes are placed, so that a fragment
     * sent after it arrives after them.
     *
     * @return false if it cannot write to this peer now (the caller then sends fragments instead)
     */
    default boolean put(BtlEndpoint to, MemorySegment local, long remoteAddress, long remoteKey) {
        return false;
    }

    /**
     * This process's doorbell, which peers ring through {@link #notifyPeer}; null (the default)
     * when this module's peers cannot wake this process.
     */
    default BtlDoorbell doorbell() {
        return null;
    }

    /**
     * Rings the peer's doorbell if the peer has armed it; called after a fragment that needs the
     * peer's attention (a rendezvous start) went out. Returns true if it rang.
     */
    default boolean notifyPeer(BtlEndpoint to) {
        return false;
    }

    /** The module's counters, read like MPI_T performance variables; none by default. */
    default List<PerformanceVariable> performanceVariables() {
        return List.of();
    }

    /** Moves what is ready (arrivals, pending sends); returns how many events it handled. */
    int progress();

    /** True while fragments accepted by {@link #send} are not yet on their way. */
    boolean hasPendingSends();

    /** Releases the module's resources; called once at finalize, after pending sends drained. */
    void finalizeModule();
}
