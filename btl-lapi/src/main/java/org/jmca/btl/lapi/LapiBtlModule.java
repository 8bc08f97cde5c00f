package org.jmca.btl.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.jmca.common.lapi.Lapi;
import org.jmca.common.lapi.Reception;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;

/**
 * {@code btl/lapi}'s module: MPI over LAPI. A fragment is one active message to JMCA's BTL
 * header handler (the BTL's tag and header as the user header, the payload as data), sent from
 * a staging slot of the module (LAPI may packetize it after the call returns) that comes back
 * when the origin counter says the data is out. At the target the header handler gives a
 * receive buffer and the completion handler queues the fragment; {@link #progress()} hands the
 * queued fragments to the PML on its own thread. RDMA for ob1's rendezvous is LAPI's put and
 * get, waited for on a completion counter.
 *
 * <p>The module publishes its LAPI context ({@link Lapi#published()}), so a program of the job
 * can use LAPI directly.
 */
final class LapiBtlModule implements BtlModule {
    /** Fragments that may be out of the module's hands at once. */
    private static final int STAGING_SLOTS = 64;
    /** Largest header the PML gives a fragment. */
    private static final int MAX_HEADER = 64;

    private final LapiTask lapi;
    private final BtlProperties properties;
    private final int maxSendSize;
    private final Arena arena = Arena.ofShared();
    private final Slot[] slots = new Slot[STAGING_SLOTS];
    /** Fragments whose data is in, in arrival order: filled by the dispatcher or completion thread, drained by progress. */
    private final ConcurrentLinkedQueue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
    /** Receive buffers back from the PML, for the header handler. */
    private final ConcurrentLinkedQueue<MemorySegment> freeBuffers = new ConcurrentLinkedQueue<>();
    private final Map<Long, MemorySegment> exposed = new ConcurrentHashMap<>();
    private final AtomicLong nextKey = new AtomicLong();
    private final TaskCounter rdmaDone = new TaskCounter();
    private LapiEndpoint[] endpoints;
    private BtlReceiver receiver;
    private boolean finalized;

    /** A staging buffer for one outgoing fragment, free again once its origin counter moved. */
    private static final class Slot {
        final MemorySegment memory;
        final TaskCounter sent = new TaskCounter();
        boolean busy;

        Slot(MemorySegment memory) {
            this.memory = memory;
        }

        boolean free() {
            if (busy && sent.value() > 0) {
                sent.set(0);
                busy = false;
            }
            return !busy;
        }
    }

    private record Arrival(LapiEndpoint from, byte tag, MemorySegment buffer, long length) {
    }

    /** @param properties what the component's parameters give; its fragments are at most 64 MiB */
    LapiBtlModule(LapiTask lapi, BtlProperties properties) {
        this.lapi = lapi;
        this.maxSendSize = (int) properties.maxSendSize();
        this.properties = properties;
        for (int i = 0; i < STAGING_SLOTS; i++) {
            slots[i] = new Slot(arena.allocate(MAX_HEADER + maxSendSize, 64));
        }
        lapi.registerInternal(LapiTask.BTL_HANDLER, this::onHeader);
    }

    LapiTask lapi() {
        return lapi;
    }

    @Override
    public String componentName() {
        return "lapi";
    }

    @Override
    public BtlProperties properties() {
        return properties;
    }

    @Override
    public Map<String, String> localAddress() {
        return lapi.address();
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        endpoints = new LapiEndpoint[peers.size()];
        List<BtlEndpoint> result = new ArrayList<>();
        for (Peer peer : peers) {
            endpoints[peer.rank()] = new LapiEndpoint(peer.rank(), this);
            result.add(endpoints[peer.rank()]);
        }
        lapi.connect(peers); // after the endpoints: a notification thread may deliver at once
        Lapi.publish(lapi);
        return result;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    // ---- sending ------------------------------------------------------------------------------

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        long headerLength = header.byteSize();
        long payloadLength = payload.byteSize();
        if (headerLength > MAX_HEADER || headerLength + payloadLength > maxSendSize) {
            throw new IllegalArgumentException("btl/lapi: a fragment of " + headerLength + " + " + payloadLength
                    + " bytes is above btl_lapi_max_send_size=" + maxSendSize + " or its header above " + MAX_HEADER);
        }
        Slot slot = freeSlot();
        if (slot == null) {
            return false;
        }
        MemorySegment userHeader = slot.memory.asSlice(0, 1 + headerLength);
        userHeader.set(ValueLayout.JAVA_BYTE, 0, tag);
        MemorySegment.copy(header, 0, userHeader, 1, headerLength);
        MemorySegment data = slot.memory.asSlice(MAX_HEADER, payloadLength);
        MemorySegment.copy(payload, 0, data, 0, payloadLength);
        slot.busy = true;
        lapi.activeMessage(to.rank(), LapiTask.BTL_HANDLER, userHeader, data, Lapi.NO_COUNTER, slot.sent, null);
        return true;
    }

    private Slot freeSlot() {
        for (Slot slot : slots) {
            if (slot.free()) {
                return slot;
            }
        }
        return null;
    }

    // ---- receiving ----------------------------------------------------------------------------

    /** JMCA's BTL header handler, in the dispatcher: a buffer for the fragment, and its queueing once in. */
    private Reception onHeader(int origin, MemorySegment userHeader, long dataLength) {
        long headerLength = userHeader.byteSize() - 1;
        MemorySegment buffer = receiveBuffer();
        MemorySegment.copy(userHeader, 1, buffer, 0, headerLength);
        Arrival arrival = new Arrival(endpoints[origin], userHeader.get(ValueLayout.JAVA_BYTE, 0), buffer,
                headerLength + dataLength);
        return new Reception(buffer.asSlice(headerLength, dataLength), () -> arrivals.offer(arrival));
    }

    private MemorySegment receiveBuffer() {
        MemorySegment buffer = freeBuffers.poll();
        return buffer != null ? buffer : arena.allocate(MAX_HEADER + maxSendSize, 64);
    }

    @Override
    public int progress() {
        lapi.probe();
        int events = 0;
        Arrival arrival;
        while ((arrival = arrivals.poll()) != null) {
            receiver.onFragment(arrival.from(), arrival.tag(), arrival.buffer(), 0, arrival.length());
            freeBuffers.offer(arrival.buffer());
            events++;
        }
        return events;
    }

    @Override
    public boolean hasPendingSends() {
        for (Slot slot : slots) {
            if (!slot.free()) {
                return true;
            }
        }
        return false;
    }

    // ---- RDMA ---------------------------------------------------------------------------------

    @Override
    public boolean canGet(long bytes) {
        return true;
    }

    @Override
    public boolean canPut(long bytes) {
        return true;
    }

    @Override
    public long exposeForGet(MemorySegment data) {
        return expose(data);
    }

    @Override
    public long exposeForPut(MemorySegment data) {
        return expose(data);
    }

    private long expose(MemorySegment data) {
        lapi.expose(data);
        long key = nextKey.incrementAndGet();
        exposed.put(key, data);
        return key;
    }

    @Override
    public void unexpose(long key) {
        MemorySegment data = exposed.remove(key);
        if (data != null) {
            lapi.withdraw(data);
        }
    }

    @Override
    public boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
        lapi.get(from.rank(), remoteAddress, local, Lapi.NO_COUNTER, rdmaDone);
        lapi.waitcntr(rdmaDone, 1);
        return true;
    }

    @Override
    public boolean put(BtlEndpoint to, MemorySegment local, long remoteAddress, long remoteKey) {
        lapi.put(to.rank(), remoteAddress, local, Lapi.NO_COUNTER, null, rdmaDone);
        lapi.waitcntr(rdmaDone, 1);
        return true;
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return lapi.performanceVariables();
    }

    @Override
    public void finalizeModule() {
        if (finalized) {
            return;
        }
        finalized = true;
        Lapi.withdraw(lapi);
        lapi.close();
        arena.close();
    }
}
