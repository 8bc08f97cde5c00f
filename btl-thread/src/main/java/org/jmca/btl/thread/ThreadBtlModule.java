package org.jmca.btl.thread;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jmca.btl.base.IncomingRings;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.BulkCopy;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;

/**
 * btl/thread's module for one rank: a ring from every other thread rank to this one, polled by
 * progress, and a table of the memory this rank exposes for the others to read (a rendezvous
 * message: the receiver copies it straight from the sender's array into its own).
 */
final class ThreadBtlModule implements BtlModule {
    private final int rank;
    private final ThreadFabric fabric;
    private final BtlProperties properties;
    private final IncomingRings incoming = new IncomingRings();
    private BtlReceiver receiver;
    /**
     * Memory exposed for GET, by key. Written by this rank before the rendezvous record that names
     * the key is published, so a peer that read the record sees the entry.
     */
    private volatile MemorySegment[] exposed = new MemorySegment[4];
    private int[] freeKeys = {3, 2, 1, 0};
    private int freeCount = 4;

    private record Endpoint(int rank, ThreadBtlModule module, SharedRing outgoing) implements BtlEndpoint {
    }

    /** Set by finalize: a full ring to this rank will never drain. */
    private volatile boolean finalized;

    ThreadBtlModule(int rank, ThreadFabric fabric, BtlProperties properties) {
        this.rank = rank;
        this.fabric = fabric;
        this.properties = properties;
        fabric.join(rank, this);
    }

    @Override
    public String componentName() {
        return "thread";
    }

    @Override
    public BtlProperties properties() {
        return properties;
    }

    @Override
    public Map<String, String> localAddress() {
        return Map.of();
    }

    /** Every other rank whose module joined the fabric (all joined before the wire-up exchange ended). */
    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        List<BtlEndpoint> endpoints = new ArrayList<>(peers.size());
        List<SharedRing> rings = new ArrayList<>();
        List<SharedRing.Handler> ringHandlers = new ArrayList<>();
        for (Peer peer : peers) {
            ThreadBtlModule theirs = peer.rank() == rank ? null : fabric.module(peer.rank());
            if (theirs == null) {
                endpoints.add(null);
                continue;
            }
            Endpoint endpoint = new Endpoint(peer.rank(), this, fabric.ring(rank, peer.rank()));
            endpoints.add(endpoint);
            rings.add(fabric.ring(peer.rank(), rank));
            ringHandlers.add((tag, data, offset, length) -> receiver.onFragment(endpoint, tag, data, offset, length));
        }
        incoming.set(rings, ringHandlers);
        return endpoints;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        Endpoint endpoint = (Endpoint) to;
        return endpoint.outgoing.offer(tag, header, payload) || refused(endpoint);
    }

    @Override
    public boolean send(BtlEndpoint to, byte tag, long header0, long header1, MemorySegment payload) {
        Endpoint endpoint = (Endpoint) to;
        return endpoint.outgoing.offer(tag, header0, header1, payload) || refused(endpoint);
    }

    /** A full ring: wait for the peer to drain it, unless it finalized and never will. */
    private boolean refused(Endpoint to) {
        ThreadBtlModule peer = fabric.module(to.rank());
        if (peer != null && peer.finalized) {
            throw new PeerFailureException(to.rank(), "btl/thread: rank " + rank + " cannot send to rank " + to.rank()
                    + ": it has finalized, and its ring from this rank is full");
        }
        return false;
    }

    @Override
    public boolean canGet(long bytes) {
        return true;
    }

    @Override
    public long exposeForGet(MemorySegment data) {
        if (freeCount == 0) {
            MemorySegment[] grown = Arrays.copyOf(exposed, exposed.length * 2);
            freeKeys = new int[grown.length];
            for (int key = grown.length - 1; key >= exposed.length; key--) {
                freeKeys[freeCount++] = key;
            }
            exposed = grown;
        }
        int key = freeKeys[--freeCount];
        exposed[key] = data;
        return key;
    }

    @Override
    public void unexpose(long key) {
        exposed[(int) key] = null;
        freeKeys[freeCount++] = (int) key;
    }

    /**
     * One copy, from the peer's memory (heap or native) straight into ours. Native memory is read
     * at {@code remoteAddress} (a window's displacement); heap memory, which has no address, from
     * its start.
     */
    @Override
    public boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
        MemorySegment theirs = fabric.module(from.rank()).exposed[(int) remoteKey];
        BulkCopy.copy(theirs, theirs.isNative() ? remoteAddress - theirs.address() : 0, local, 0, local.byteSize());
        return true;
    }

    @Override
    public int progress() {
        return incoming.poll();
    }

    @Override
    public boolean hasPendingSends() {
        return false;
    }

    @Override
    public void finalizeModule() {
        finalized = true;
        incoming.clear();
        Arrays.fill(exposed, null);
    }
}
