package org.jmca.btl.self;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;

/**
 * The loopback to one's own rank. A send copies the fragment and the next progress turn delivers
 * it, so the receiver's upcall never runs inside the sender's call (the PML need not be
 * re-entrant).
 */
final class SelfBtlModule implements BtlModule {
    private final int rank;
    private final BtlProperties properties;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final BtlEndpoint self = new BtlEndpoint() {
        @Override
        public int rank() {
            return rank;
        }

        @Override
        public BtlModule module() {
            return SelfBtlModule.this;
        }
    };
    private BtlReceiver receiver;

    private record Pending(byte tag, MemorySegment fragment) { }

    SelfBtlModule(int rank, BtlProperties properties) {
        this.rank = rank;
        this.properties = properties;
    }

    @Override
    public String componentName() {
        return "self";
    }

    @Override
    public BtlProperties properties() {
        return properties;
    }

    @Override
    public Map<String, String> localAddress() {
        return Map.of();
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        List<BtlEndpoint> endpoints = new ArrayList<>(peers.size());
        for (Peer peer : peers) {
            endpoints.add(peer.rank() == rank ? self : null);
        }
        return endpoints;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        if (to != self) {
            throw new IllegalArgumentException("btl/self reaches only rank " + rank + ", not rank " + to.rank());
        }
        long length = header.byteSize() + payload.byteSize();
        if (length > properties.maxSendSize()) {
            throw new IllegalArgumentException("fragment of " + length + " bytes exceeds btl_self_max_send_size="
                    + properties.maxSendSize());
        }
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) length]);
        MemorySegment.copy(header, 0, copy, 0, header.byteSize());
        MemorySegment.copy(payload, 0, copy, header.byteSize(), payload.byteSize());
        queue.addLast(new Pending(tag, copy));
        return true;
    }

    @Override
    public int progress() {
        int delivered = 0;
        // Only what is queued now: fragments sent from inside an upcall wait for the next turn.
        for (int n = queue.size(); n > 0; n--) {
            Pending pending = queue.pollFirst();
            receiver.onFragment(self, pending.tag(), pending.fragment(), 0, pending.fragment().byteSize());
            delivered++;
        }
        return delivered;
    }

    @Override
    public boolean hasPendingSends() {
        return false;
    }

    @Override
    public void finalizeModule() {
        queue.clear();
    }
}
