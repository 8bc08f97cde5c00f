package org.jmca.btl.gm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.btl.base.RegistrationCache;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmNic;
import org.jmca.common.gm.GmPort;
import org.jmca.common.gm.GmPriority;
import org.jmca.common.gm.GmStatus;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;

/**
 * {@code btl/gm}: fragments over a GM port. Every fragment is one GM message, the
 * active-message tag in its first byte, sent from a registered send buffer (one per send token)
 * into one of the buffers each process keeps provided for two size classes: a small one for
 * short fragments and one that holds {@code btl_gm_max_send_size}. GM itself is the flow
 * control: a message waits at the receiver until a buffer of its class is provided again, and the
 * sender's token stays taken meanwhile, so a sender without tokens or send buffers is told to
 * wait (back-pressure).
 *
 * <p>For ob1's RPUT the receiver registers its buffer (through the registration cache) and the
 * sender writes into it by directed sends, in blocks of {@code btl_gm_rdma_pipeline_frag_size}:
 * native data registered block by block, heap data through two registered bounce blocks.
 */
final class GmBtlModule implements BtlModule {
    static final Counter PUTS = new Counter("btl_gm_put", "rendezvous messages written by directed sends");
    static final Counter REG_CACHE_HITS = new Counter("btl_gm_reg_cache_hits", "registrations found in the cache");
    static final Counter REG_CACHE_MISSES = new Counter("btl_gm_reg_cache_misses", "registrations made");
    static final Counter SEND_BACKPRESSURE = new Counter("btl_gm_send_backpressure",
            "fragments refused for want of a send token or buffer");
    static final Counter TO_CLOSED_PORTS = new Counter("btl_gm_sends_to_closed_ports",
            "sends whose target port had closed (its process finalized or died)");
    static final List<Counter> COUNTERS = List.of(PUTS, REG_CACHE_HITS, REG_CACHE_MISSES, SEND_BACKPRESSURE,
            TO_CLOSED_PORTS);
    private static final int SMALL_SIZE = 12; // 4088 bytes

    private final int rank;
    private final GmPort port;
    private final EmulatedGmNic nic;
    private final GmSettings settings;
    private final Arena arena = Arena.ofShared();
    private final int largeSize;
    private final MemorySegment sendBuffers;
    private final ArrayDeque<MemorySegment> freeSendBuffers = new ArrayDeque<>();
    private final RegistrationCache<MemorySegment> registrations;
    private final Map<Long, RegistrationCache.Entry<MemorySegment>> exposed = new HashMap<>();
    /**
     * Fragments that arrived while a put waited for its callbacks, copied out so that their
     * buffers go back to the NIC at once (a peer's put may wait behind them): handed up at the
     * next progress.
     */
    private final ArrayDeque<Deferred> deferred = new ArrayDeque<>();
    private final int sendBufferCount;
    private MemorySegment bounce;
    private final Map<Integer, GmEndpoint> byNode = new HashMap<>();
    private BtlReceiver receiver;
    private long nextExposure = 1;
    private int putsPending;
    private long puts;
    private long backpressure;
    private long toClosedPorts;
    /** The ranks a send found closed: a late message to one is let go, a send after that is a failure. */
    private final BitSet closedPeers = new BitSet(); // looked at on every send: no boxing

    private record Deferred(GmEndpoint from, byte tag, MemorySegment bytes) {
    }

    /** The way to one peer: its node and port. */
    record GmEndpoint(GmBtlModule owner, int rank, int node, int portId) implements BtlEndpoint {
        @Override
        public BtlModule module() {
            return owner;
        }
    }

    /**
     * @param nic the NIC the port is on, published while the module runs so that coll/gm can open
     *            its own port on it; null where nothing else may use it (tests of the BTL alone)
     */
    GmBtlModule(int rank, GmPort port, EmulatedGmNic nic, GmSettings settings) {
        this.rank = rank;
        this.port = port;
        this.nic = nic;
        if (nic != null) {
            GmNic.publish(nic);
        }
        this.settings = settings;
        this.largeSize = GmPort.minSizeForLength(settings.maxSendSize() + 1);
        long largeBytes = 1L << largeSize;
        this.sendBufferCount = port.sendTokens();
        this.sendBuffers = arena.allocate(largeBytes * sendBufferCount, 64);
        port.register(sendBuffers);
        for (int i = 0; i < sendBufferCount; i++) {
            freeSendBuffers.add(sendBuffers.asSlice(largeBytes * i, largeBytes));
        }
        MemorySegment small = arena.allocate((1L << SMALL_SIZE) * settings.smallBuffers(), 64);
        MemorySegment large = arena.allocate(largeBytes * settings.largeBuffers(), 64);
        port.register(small);
        port.register(large);
        for (int i = 0; i < settings.smallBuffers(); i++) {
            port.provideReceiveBuffer(small.asSlice((1L << SMALL_SIZE) * i, 1L << SMALL_SIZE), SMALL_SIZE,
                    GmPriority.LOW, SMALL_SIZE);
        }
        for (int i = 0; i < settings.largeBuffers(); i++) {
            port.provideReceiveBuffer(large.asSlice(largeBytes * i, largeBytes), largeSize, GmPriority.LOW, largeSize);
        }
        this.registrations = new RegistrationCache<>(new RegistrationCache.Registrar<>() {
            @Override
            public MemorySegment register(MemorySegment memory, int access) {
                port.register(memory);
                return memory;
            }

            @Override
            public void deregister(MemorySegment memory) {
                port.deregister(memory);
            }
        }, settings.registrationCache(), settings.registrationCacheBytes());
    }

    @Override
    public String componentName() {
        return "gm";
    }

    @Override
    public BtlProperties properties() {
        return settings.properties();
    }

    @Override
    public Map<String, String> localAddress() {
        Map<String, String> address = new HashMap<>(nic == null ? Map.of() : nic.address());
        address.put("gm.node", Integer.toString(port.nodeId()));
        address.put("gm.port", Integer.toString(port.portId()));
        return address;
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        List<BtlEndpoint> result = new ArrayList<>();
        for (Peer peer : peers) {
            String node = peer.addresses().get("gm.node");
            if (peer.rank() == rank || node == null || nic != null && !nic.learn(peer, Integer.parseInt(node))) {
                result.add(null); // no GM here, or on another host without a wire to it
                continue;
            }
            GmEndpoint endpoint = new GmEndpoint(this, peer.rank(), Integer.parseInt(node),
                    Integer.parseInt(peer.addresses().get("gm.port")));
            byNode.put(endpoint.node(), endpoint);
            result.add(endpoint);
        }
        return result;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    /** One GM message: the tag, the header, the payload, from a registered send buffer. */
    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        GmEndpoint endpoint = (GmEndpoint) to;
        if (closedPeers.get(endpoint.rank())) {
            throw new PeerFailureException(endpoint.rank(), "btl/gm: rank " + rank + " cannot send to rank "
                    + endpoint.rank() + ": its port closed (it finalized or died), and " + toClosedPorts
                    + " send(s) to closed ports were let go");
        }
        if (port.sendTokens() == 0 || freeSendBuffers.isEmpty()) {
            backpressure++;
            return false;
        }
        long length = 1 + header.byteSize() + payload.byteSize();
        MemorySegment buffer = freeSendBuffers.pollFirst();
        buffer.set(ValueLayout.JAVA_BYTE, 0, tag);
        MemorySegment.copy(header, 0, buffer, 1, header.byteSize());
        MemorySegment.copy(payload, 0, buffer, 1 + header.byteSize(), payload.byteSize());
        int size = length <= GmPort.maxLengthForSize(SMALL_SIZE) ? SMALL_SIZE : largeSize;
        port.send(buffer.asSlice(0, length), size, GmPriority.LOW, endpoint.node(), endpoint.portId(), status -> {
            freeSendBuffers.addLast(buffer);
            failed(endpoint.rank(), "a fragment", status);
        });
        return true;
    }

    /**
     * A send's outcome: a closed target port is a peer that finalized or died. What was sent to
     * it is let go (a late message to a peer that finalized), and the next send to it fails,
     * naming it, as btl/sm's does once a finalized peer's ring is full: a peer that died is
     * reported, not waited for. Anything else is an error of this process.
     */
    private void failed(int to, String what, GmStatus status) {
        if (status == GmStatus.SEND_TARGET_PORT_CLOSED) {
            toClosedPorts++;
            closedPeers.set(to);
        } else if (status != GmStatus.SUCCESS) {
            throw new McaException("btl/gm: rank " + rank + ": " + what + " to rank " + to + " failed: GM_" + status);
        }
    }

    @Override
    public int progress() {
        int events = 0;
        while (!deferred.isEmpty()) {
            Deferred fragment = deferred.pollFirst();
            receiver.onFragment(fragment.from(), fragment.tag(), fragment.bytes(), 0, fragment.bytes().byteSize());
            events++;
        }
        for (GmEvent event = port.receive(); event instanceof GmEvent.Received received; event = port.receive()) {
            MemorySegment buffer = received.buffer();
            receiver.onFragment(byNode.get(received.senderNode()), buffer.get(ValueLayout.JAVA_BYTE, 0), buffer, 1,
                    received.length() - 1);
            provideAgain(received);
            events++;
        }
        return events;
    }

    private void provideAgain(GmEvent.Received received) {
        port.provideReceiveBuffer(received.buffer(), received.size(), received.priority(), received.tag());
    }

    /** True while a fragment has not called back (its send buffer is still the NIC's). */
    @Override
    public boolean hasPendingSends() {
        return freeSendBuffers.size() < sendBufferCount;
    }

    // ---- RPUT by directed sends -----------------------------------------------------------------

    @Override
    public boolean canPut(long bytes) {
        return true;
    }

    @Override
    public long exposeForPut(MemorySegment data) {
        RegistrationCache.Entry<MemorySegment> entry = registrations.acquire(data, 0);
        long id = nextExposure++;
        exposed.put(id, entry);
        return id;
    }

    @Override
    public void unexpose(long key) {
        RegistrationCache.Entry<MemorySegment> entry = exposed.remove(key);
        if (entry != null) {
            registrations.release(entry);
        }
    }

    /**
     * Writes {@code local} at {@code remoteAddress} by directed sends of at most a pipeline block
     * each, and returns once every one has called back.
     */
    @Override
    public boolean put(BtlEndpoint to, MemorySegment local, long remoteAddress, long remoteKey) {
        GmEndpoint endpoint = (GmEndpoint) to;
        long total = local.byteSize();
        long block = settings.pipelineBlock() > 0 ? settings.pipelineBlock() : local.isNative() ? total : 128 * 1024;
        List<RegistrationCache.Entry<MemorySegment>> used = new ArrayList<>();
        if (!local.isNative() && bounce == null) {
            bounce = arena.allocate(2 * block, 64);
            port.register(bounce);
        }
        int half = 0;
        for (long offset = 0; offset < total; offset += block, half ^= 1) {
            long length = Math.min(block, total - offset);
            MemorySegment source;
            if (local.isNative()) {
                RegistrationCache.Entry<MemorySegment> entry = registrations.acquire(local.asSlice(offset, length), 0);
                used.add(entry);
                source = local.asSlice(offset, length);
            } else {
                awaitPuts(1); // the half about to be refilled was written two blocks ago
                source = bounce.asSlice(half * block, length);
                MemorySegment.copy(local, offset, source, 0, length);
            }
            while (port.sendTokens() == 0) {
                moveKeepingFragments();
            }
            putsPending++;
            port.directedSend(source, remoteAddress + offset, GmPriority.LOW, endpoint.node(), endpoint.portId(),
                    status -> {
                        putsPending--;
                        failed(endpoint.rank(), "a directed send", status);
                    });
        }
        awaitPuts(0);
        used.forEach(registrations::release);
        puts++;
        return true;
    }

    /** Moves the port until at most {@code pending} directed sends are outstanding. */
    private void awaitPuts(int pending) {
        while (putsPending > pending) {
            moveKeepingFragments();
        }
    }

    /** One turn of the port; a fragment that arrives is copied for the next progress, its buffer provided again. */
    private void moveKeepingFragments() {
        if (port.receive() instanceof GmEvent.Received received) {
            MemorySegment buffer = received.buffer();
            deferred.addLast(new Deferred(byNode.get(received.senderNode()), buffer.get(ValueLayout.JAVA_BYTE, 0),
                    MemorySegment.ofArray(new byte[received.length() - 1]).copyFrom(buffer.asSlice(1,
                            received.length() - 1))));
            provideAgain(received);
        }
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return List.of(PUTS.readBy(() -> puts), REG_CACHE_HITS.readBy(registrations::hits),
                REG_CACHE_MISSES.readBy(registrations::misses), SEND_BACKPRESSURE.readBy(() -> backpressure),
                TO_CLOSED_PORTS.readBy(() -> toClosedPorts));
    }

    @Override
    public void finalizeModule() {
        if (nic != null) {
            GmNic.withdraw(nic);
        }
        registrations.clear();
        port.close();
        if (nic != null) {
            nic.close();
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "btl/gm on " + port;
    }
}
