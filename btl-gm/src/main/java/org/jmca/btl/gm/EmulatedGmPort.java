package org.jmca.btl.gm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jmca.btl.base.CrossMemory;
import org.jmca.btl.base.RingFile;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmException;
import org.jmca.common.gm.GmPort;
import org.jmca.common.gm.GmPriority;
import org.jmca.common.gm.GmStatus;
import org.jmca.mca.McaException;

/**
 * A GM port on the emulated GM NIC: the semantics of {@link GmPort} kept between the processes
 * of a job on one host. Each port is a {@link RingFile} in the fabric's directory holding one
 * inbound ring per sending node, the wire. A node may open several ports (btl/gm and coll/gm
 * each have their own, as in the CollGM paper); port {@code p} talks to the ports {@code p} of
 * the other nodes. The NIC's work happens in the owner's {@link #receive} calls, as in a NIC
 * without its own processor:
 *
 * <ul>
 * <li>a send puts a packet on the target's ring: the message itself when it is short, else its
 *     address, from which the target's NIC reads it ({@code process_vm_readv}) once a buffer of
 *     its size and priority is there, as an NIC's DMA would;
 * <li>a message without such a buffer waits at the target, and so does everything the same
 *     sender sent after it at that priority (GM's order); the sender's token stays taken;
 * <li>once placed, the target acknowledges; the sender's {@link #receive} then runs its callback
 *     and its token is back;
 * <li>a directed send is a packet too, in order with the sends of its priority: the target
 *     checks that its registered memory holds the range, reads the data from the sender and
 *     acknowledges, or rejects it.
 * </ul>
 *
 * Registration costs {@code registrationBaseNanos + pages x registrationNanosPerPage} of the
 * caller's time (a model of pinning and of the NIC's page-table update), so that pipelined
 * registration has something to hide.
 */
public final class EmulatedGmPort implements GmPort {
    static final byte MESSAGE = 1;
    static final byte DIRECTED = 2;
    static final byte ACK = 3;
    /** Messages up to this length travel in the packet; longer ones are read from the sender. */
    static final int INLINE_LIMIT = 4096;
    /** Set in a packet's word when it carries its data whatever its length (it came over the wire). */
    private static final long CARRIES_DATA = 1L << 41;
    private static final long MAGIC = 0x4a4d43412d474d31L;
    /** The owner's node, after the RingFile's header (magic "JMCA-GM1", pid, nodes, ring capacity, open). */
    private static final long NODE = RingFile.OWN_FIELDS;
    /**
     * Rings in node order. Written under a temporary name and renamed, so a peer that finds the
     * file finds it whole (another component's port may open while peers already send to it).
     */
    static final RingFile.Kind KIND = new RingFile.Kind("emulated GM NIC", "port file", MAGIC,
            NODE + Integer.BYTES, RingFile.Creation.RENAMED);
    private static final long PAGE = 4096;
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final GmStatus[] STATUSES = GmStatus.values();
    /** A packet's two words, before its payload. */
    private static final int PACKET_HEADER = 16;
    /** A directed send's payload starts with its target, source and length. */
    private static final int DIRECTED_HEADER = 24;

    /** What the NIC is given when the port opens. */
    public record Settings(int ringCapacity, int sendTokens, int receiveTokens, long registrationBaseNanos,
                           long registrationNanosPerPage) {
        public Settings {
            SharedRing.checkCapacity(ringCapacity);
            if (sendTokens < 1 || receiveTokens < 1) {
                throw new IllegalArgumentException("sendTokens=" + sendTokens + " and receiveTokens=" + receiveTokens
                        + " must be positive");
            }
        }
    }

    private final Path fabric;
    private final int node;
    private final int nodes;
    private final int port;
    private final Settings settings;
    private final Arena arena = Arena.ofShared();
    private final RingFile file;
    private final SharedRing[] inbound;
    private final SharedRing.Handler[] handlers;
    private final Peer[] peers;
    private final CrossMemory crossMemory;
    private final List<long[]> registered = new ArrayList<>();
    private final Map<ProvidedKey, ArrayDeque<Provided>> provided = new HashMap<>();
    /** Per sender node and priority: what arrived and cannot be placed yet, in order. */
    private final ArrayDeque<Arrival>[][] held;
    private final ArrayDeque<GmEvent.Received> events = new ArrayDeque<>();
    private final Map<Long, Outstanding> outstanding = new HashMap<>();
    private final ArrayDeque<Runnable> callbacks = new ArrayDeque<>();
    /** Null, or the wire to nodes on other hosts, and what its threads hand this port's owner. */
    private final GmWire wire;
    private final ConcurrentLinkedQueue<Arrival> fromWire = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> failedOverWire = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Integer> nodesDown = new ConcurrentLinkedQueue<>();
    /** Set, under {@code fromWire}'s lock, when the port closes: the wire then refuses its packets. */
    private boolean closedToWire;
    /** Set once a peer wrote a corrupt packet into this port's rings: every call throws it from then on. */
    private McaException failure;
    private int sendTokens;
    private int receiveTokens;
    private long nextSendId = 1;
    private boolean closed;

    private record ProvidedKey(int size, GmPriority priority) {
    }

    private record Provided(MemorySegment buffer, int tag) {
    }

    /** A packet that could not be carried out when it arrived: a copy of it ({@code from}: its node, for the wire's). */
    private record Arrival(byte kind, long sendId, long word, MemorySegment payload, int from) {
    }

    private record Outstanding(int targetNode, SendCallback callback) {
    }

    /** Another port as this one sees it: its file, the ring into it, what waits for room there. */
    private static final class Peer {
        final RingFile file;
        final SharedRing ring;
        final long pid;
        final ArrayDeque<Object[]> backlog = new ArrayDeque<>();

        Peer(RingFile file, SharedRing ring) {
            this.file = file;
            this.ring = ring;
            this.pid = file.ownerPid();
        }

        boolean open() {
            return file.isOpen();
        }
    }

    @SuppressWarnings("unchecked")
    private EmulatedGmPort(Path fabric, int node, int nodes, int port, Settings settings, GmWire wire) {
        this.fabric = fabric;
        this.node = node;
        this.nodes = nodes;
        this.port = port;
        this.settings = settings;
        this.sendTokens = settings.sendTokens();
        this.receiveTokens = settings.receiveTokens();
        this.file = RingFile.create(pathOf(fabric, node, port), KIND, nodes, settings.ringCapacity(), fresh -> {
            fresh.memory().set(ValueLayout.JAVA_INT, NODE, node);
            fresh.setOpen(true);
        }, arena);
        this.inbound = new SharedRing[nodes + 1];
        this.handlers = new SharedRing.Handler[nodes + 1];
        this.held = new ArrayDeque[nodes + 1][2];
        for (int from = 1; from <= nodes; from++) {
            inbound[from] = file.ring(from - 1);
            int sender = from;
            handlers[from] = (kind, data, offset, length) -> {
                if (length < PACKET_HEADER) {
                    throw fail(sender, "a packet of " + length + " bytes, shorter than its " + PACKET_HEADER
                            + "-byte header (kind " + kind + ")");
                }
                onPacket(sender, kind, data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset),
                        data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8),
                        data.asSlice(offset + PACKET_HEADER, length - PACKET_HEADER));
            };
            held[from][0] = new ArrayDeque<>();
            held[from][1] = new ArrayDeque<>();
        }
        this.peers = new Peer[nodes + 1];
        this.crossMemory = new CrossMemory(arena);
        this.wire = wire;
        if (wire != null) {
            wire.attach(this);
        }
    }

    /**
     * Opens node {@code node}'s port (nodes are 1..{@code nodes}, one port each) in the fabric
     * directory the job's processes share.
     */
    public static EmulatedGmPort open(Path fabric, int node, int nodes, int port, Settings settings) {
        return open(fabric, node, nodes, port, settings, null);
    }

    /** Opens a port whose NIC reaches the nodes {@code wire} knows over it, the others through the fabric directory. */
    static EmulatedGmPort open(Path fabric, int node, int nodes, int port, Settings settings, GmWire wire) {
        String why = CrossMemory.probe();
        if (why != null) {
            throw new GmException("the emulated GM NIC reads long messages from the sender's memory: " + why);
        }
        if (node < 1 || node > nodes) {
            throw new GmException("node id " + node + " is outside 1.." + nodes);
        }
        return new EmulatedGmPort(fabric, node, nodes, port, settings, wire);
    }

    @Override
    public int nodeId() {
        return node;
    }

    @Override
    public int portId() {
        return port;
    }

    @Override
    public int sendTokens() {
        return sendTokens;
    }

    @Override
    public int receiveTokens() {
        return receiveTokens;
    }

    // ---- memory registration ----------------------------------------------------------------

    @Override
    public void register(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new GmException("gm_register_memory: only native memory can be registered, not " + memory);
        }
        long pages = (memory.byteSize() + PAGE - 1) / PAGE;
        long until = System.nanoTime() + settings.registrationBaseNanos() + pages * settings.registrationNanosPerPage();
        while (System.nanoTime() < until) {
            Thread.onSpinWait(); // the modelled cost of pinning and of the NIC's page table
        }
        registered.add(new long[] {memory.address(), memory.byteSize()});
    }

    @Override
    public void deregister(MemorySegment memory) {
        for (int i = 0; i < registered.size(); i++) {
            long[] region = registered.get(i);
            if (region[0] == memory.address() && region[1] == memory.byteSize()) {
                registered.remove(i);
                return;
            }
        }
        throw new GmException("gm_deregister_memory: " + memory + " was not registered");
    }

    private boolean isRegistered(long address, long length) {
        for (long[] region : registered) {
            // no overflow: address - region[0] is at least 0 and at most the region's size
            if (address >= region[0] && length >= 0 && length <= region[0] + region[1] - address) {
                return true;
            }
        }
        return length == 0;
    }

    private void requireRegistered(String call, MemorySegment memory) {
        if (!memory.isNative() || !isRegistered(memory.address(), memory.byteSize())) {
            throw new GmException(call + ": " + memory + " is not in registered memory");
        }
    }

    // ---- receiving ----------------------------------------------------------------------------

    @Override
    public void provideReceiveBuffer(MemorySegment buffer, int size, GmPriority priority, int tag) {
        if (receiveTokens == 0) {
            throw new GmException("gm_provide_receive_buffer: no receive token (all "
                    + settings.receiveTokens() + " buffers are provided already)");
        }
        if (buffer.byteSize() < GmPort.maxLengthForSize(size)) {
            throw new GmException("gm_provide_receive_buffer: " + buffer.byteSize() + " bytes cannot hold size class "
                    + size + " (" + GmPort.maxLengthForSize(size) + " bytes)");
        }
        requireRegistered("gm_provide_receive_buffer", buffer);
        receiveTokens--;
        provided.computeIfAbsent(new ProvidedKey(size, priority), k -> new ArrayDeque<>())
                .addLast(new Provided(buffer, tag));
    }

    @Override
    public GmEvent receive() {
        if (closed) {
            throw new GmException("gm_receive: the port is closed");
        }
        if (failure != null) {
            throw failure;
        }
        for (int from = 1; from <= nodes; from++) {
            inbound[from].poll(handlers[from]);
        }
        if (wire != null) {
            takeFromWire();
        }
        for (int from = 1; from <= nodes; from++) {
            for (ArrayDeque<Arrival> queue : held[from]) {
                while (!queue.isEmpty() && carryOut(from, queue.peekFirst())) {
                    queue.removeFirst();
                }
            }
        }
        flushBacklogs();
        while (!callbacks.isEmpty()) {
            callbacks.pollFirst().run();
        }
        GmEvent.Received event = events.pollFirst();
        if (event == null) {
            return GmEvent.NONE;
        }
        receiveTokens++;
        return event;
    }

    /**
     * Why a packet of {@code kind} with {@code word} and {@code payload}, from outside this
     * process, is one no port sends, or null if it is well formed: a field that would make
     * carrying it out index, copy or wait outside what it names.
     */
    static String malformed(byte kind, long word, MemorySegment payload) {
        long bytes = payload.byteSize();
        return switch (kind) {
            case ACK -> word >= 0 && word < STATUSES.length ? null : "an acknowledgement with status " + word
                    + ", not 0.." + (STATUSES.length - 1);
            case DIRECTED -> {
                if (bytes < DIRECTED_HEADER) {
                    yield "a directed send of " + bytes + " bytes, shorter than its " + DIRECTED_HEADER
                            + "-byte target, source and length";
                }
                long length = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
                yield (word & CARRIES_DATA) != 0 && length > bytes - DIRECTED_HEADER
                        ? "a directed send of " + length + " bytes carrying " + (bytes - DIRECTED_HEADER) : null;
            }
            case MESSAGE -> {
                int length = (int) word;
                int size = sizeOf(word);
                if (size < 4 || size > 31) {
                    yield "a message of size class " + size + ", not 4..31";
                }
                if (length < 0 || length > GmPort.maxLengthForSize(size)) {
                    yield "a message of " + length + " bytes in size class " + size;
                }
                boolean inline = length <= INLINE_LIMIT || (word & CARRIES_DATA) != 0;
                yield inline && bytes < length ? "a message of " + length + " bytes carrying " + bytes
                        : !inline && bytes < Long.BYTES ? "a message of " + length + " bytes without its address" : null;
            }
            default -> "a packet of unknown kind " + kind;
        };
    }

    private static int sizeOf(long word) {
        return (int) (word >>> 32) & 0xFF;
    }

    /** A corrupt packet from node {@code from}: the port fails, as a NIC whose peer wrote garbage into it. */
    private McaException fail(int from, String what) {
        if (failure == null) {
            failure = new McaException("emulated GM NIC: " + this + ": node " + from + " sent " + what);
        }
        return failure;
    }

    private void onPacket(int from, byte kind, long sendId, long word, MemorySegment payload) {
        String wrong = malformed(kind, word, payload);
        if (wrong != null) {
            throw fail(from, wrong);
        }
        if (kind == ACK) {
            Outstanding send = outstanding.remove(sendId);
            if (send != null) {
                sendTokens++;
                GmStatus status = STATUSES[(int) word];
                callbacks.addLast(() -> send.callback().sent(status));
            }
            return;
        }
        ArrayDeque<Arrival> queue = held[from][priorityOf(word).ordinal()];
        Arrival arrival = new Arrival(kind, sendId, word, payload, from);
        if (queue.isEmpty() && carryOut(from, arrival)) {
            return;
        }
        queue.addLast(new Arrival(kind, sendId, word, copy(payload), from)); // the ring's space is reused
    }

    // ---- the wire's side (its threads hand over; the owner carries out in receive) --------------

    /** A packet from node {@code from} on another host, with its data; false once the port has closed. */
    boolean deliverRemote(int from, byte kind, long sendId, long word, byte[] payload) {
        if (from < 1 || from > nodes) {
            throw new GmException("emulated GM NIC: " + this + ": a packet from node " + from + ", outside 1.." + nodes);
        }
        synchronized (fromWire) {
            if (closedToWire) {
                return false;
            }
            fromWire.add(new Arrival(kind, sendId, word, MemorySegment.ofArray(payload), from));
            return true;
        }
    }

    /** The remote node had no open port of this number for send {@code sendId}. */
    void remoteSendFailed(long sendId) {
        failedOverWire.add(sendId);
    }

    /** The connection to remote node {@code remote} broke: its process (or host) is gone. */
    void remoteNodeDown(int remote) {
        nodesDown.add(remote);
    }

    private void takeFromWire() {
        for (Arrival packet; (packet = fromWire.poll()) != null; ) {
            onPacket(packet.from(), packet.kind(), packet.sendId(), packet.word(), packet.payload());
        }
        for (Long sendId; (sendId = failedOverWire.poll()) != null; ) {
            failSend(sendId);
        }
        for (Integer remote; (remote = nodesDown.poll()) != null; ) {
            for (Map.Entry<Long, Outstanding> entry : List.copyOf(outstanding.entrySet())) {
                if (entry.getValue().targetNode() == remote) {
                    failSend(entry.getKey());
                }
            }
        }
    }

    /** Places a message, or carries out a directed send; false if the message has no buffer yet. */
    private boolean carryOut(int from, Arrival arrival) {
        boolean carriesData = (arrival.word() & CARRIES_DATA) != 0;
        if (arrival.kind() == DIRECTED) {
            long target = arrival.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            long source = arrival.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
            long length = arrival.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
            GmStatus status = GmStatus.SEND_REJECTED;
            if (isRegistered(target, length)) {
                if (length == 0) {
                    // nothing to write, wherever the target is
                } else if (carriesData) {
                    MemorySegment.copy(arrival.payload(), 24, ALL, target, length);
                } else {
                    readFromSender(from, source, ALL.asSlice(target, length));
                }
                status = GmStatus.SUCCESS;
            }
            acknowledge(from, arrival.sendId(), status);
            return true;
        }
        int length = (int) arrival.word();
        int size = sizeOf(arrival.word());
        GmPriority priority = priorityOf(arrival.word());
        ArrayDeque<Provided> buffers = provided.get(new ProvidedKey(size, priority));
        if (buffers == null || buffers.isEmpty()) {
            return false;
        }
        Provided buffer = buffers.pollFirst();
        if (length <= INLINE_LIMIT || carriesData) {
            MemorySegment.copy(arrival.payload(), 0, buffer.buffer(), 0, length);
        } else {
            readFromSender(from, arrival.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0), buffer.buffer().asSlice(0, length));
        }
        events.addLast(new GmEvent.Received(buffer.buffer(), length, size, priority, buffer.tag(), from, port));
        acknowledge(from, arrival.sendId(), GmStatus.SUCCESS);
        return true;
    }

    /** The NIC's DMA from the sender's memory; an address the sender's process does not have fails the port. */
    private void readFromSender(int from, long address, MemorySegment target) {
        Peer sender = peer(from);
        if (sender == null) {
            throw fail(from, "a packet whose data lies in its memory, but it has no port open to read it from");
        }
        try {
            crossMemory.read(sender.pid, address, target);
        } catch (IllegalStateException e) {
            throw fail(from, "a packet whose " + target.byteSize() + " bytes at 0x" + Long.toHexString(address)
                    + " cannot be read from its memory: " + e.getMessage());
        }
    }

    private void acknowledge(int to, long sendId, GmStatus status) {
        transmit(to, ACK, sendId, status.ordinal(), MemorySegment.NULL);
    }

    private static GmPriority priorityOf(long word) {
        return ((word >>> 40) & 1) == 0 ? GmPriority.LOW : GmPriority.HIGH;
    }

    private MemorySegment copy(MemorySegment payload) {
        return MemorySegment.ofArray(new byte[(int) payload.byteSize()]).copyFrom(payload);
    }

    // ---- sending --------------------------------------------------------------------------------

    @Override
    public void send(MemorySegment message, int size, GmPriority priority, int targetNode, int targetPort,
                     SendCallback callback) {
        long max = GmPort.maxLengthForSize(size);
        if (message.byteSize() > max) {
            throw new GmException("gm_send: " + message.byteSize() + " bytes do not fit size class " + size + " ("
                    + max + " bytes)");
        }
        requireRegistered("gm_send", message);
        long sendId = takeToken("gm_send", targetNode, targetPort, callback);
        long word = message.byteSize() | (long) size << 32 | (long) priority.ordinal() << 40;
        if (overWire(targetNode)) {
            transmit(targetNode, MESSAGE, sendId, word | CARRIES_DATA, message);
            return;
        }
        MemorySegment payload = message.byteSize() <= INLINE_LIMIT ? message
                : MemorySegment.ofArray(new long[] {message.address()});
        transmit(targetNode, MESSAGE, sendId, word, payload);
    }

    @Override
    public void directedSend(MemorySegment source, long remoteAddress, GmPriority priority, int targetNode,
                             int targetPort, SendCallback callback) {
        requireRegistered("gm_directed_send", source);
        long sendId = takeToken("gm_directed_send", targetNode, targetPort, callback);
        MemorySegment where = MemorySegment.ofArray(new long[] {remoteAddress, source.address(), source.byteSize()});
        if (overWire(targetNode)) {
            MemorySegment packet = MemorySegment.ofArray(new byte[24 + (int) source.byteSize()]);
            packet.copyFrom(where);
            packet.asSlice(24).copyFrom(source);
            transmit(targetNode, DIRECTED, sendId, (long) priority.ordinal() << 40 | CARRIES_DATA, packet);
            return;
        }
        transmit(targetNode, DIRECTED, sendId, (long) priority.ordinal() << 40, where);
    }

    private long takeToken(String call, int targetNode, int targetPort, SendCallback callback) {
        if (sendTokens == 0) {
            throw new GmException(call + ": no send token (all " + settings.sendTokens() + " sends are outstanding)");
        }
        if (targetNode < 1 || targetNode > nodes) {
            throw new GmException(call + ": node id " + targetNode + " is outside 1.." + nodes);
        }
        if (targetPort != port) {
            throw new GmException(call + ": the emulated NIC connects port " + port + " only to the ports " + port
                    + " of other nodes, not to port " + targetPort + " (each application's traffic stays on its port)");
        }
        sendTokens--;
        long sendId = nextSendId++;
        outstanding.put(sendId, new Outstanding(targetNode, callback));
        return sendId;
    }

    private boolean overWire(int to) {
        return wire != null && wire.reaches(to);
    }

    /**
     * Onto the target's ring, behind whatever waits for room there, or onto the wire to its host;
     * a closed target fails the send.
     */
    private void transmit(int to, byte kind, long sendId, long word, MemorySegment payload) {
        if (overWire(to)) {
            wire.send(to, this, kind, sendId, word, payload);
            return;
        }
        Peer peer = peer(to);
        if (peer == null || !peer.open()) {
            if (kind != ACK) {
                failSend(sendId);
            }
            return;
        }
        if (!peer.backlog.isEmpty() || !peer.ring.offer(kind, sendId, word, payload)) {
            peer.backlog.addLast(new Object[] {kind, sendId, word, copy(payload)});
        }
    }

    private void flushBacklogs() {
        for (int to = 1; to <= nodes; to++) {
            Peer peer = peers[to];
            if (peer == null) {
                continue;
            }
            if (!peer.open()) {
                for (Object[] packet : peer.backlog) {
                    if ((byte) packet[0] != ACK) {
                        failSend((long) packet[1]);
                    }
                }
                peer.backlog.clear();
                for (Map.Entry<Long, Outstanding> entry : List.copyOf(outstanding.entrySet())) {
                    if (entry.getValue().targetNode() == to) {
                        failSend(entry.getKey());
                    }
                }
                continue;
            }
            while (!peer.backlog.isEmpty()) {
                Object[] packet = peer.backlog.peekFirst();
                if (!peer.ring.offer((byte) packet[0], (long) packet[1], (long) packet[2], (MemorySegment) packet[3])) {
                    break;
                }
                peer.backlog.removeFirst();
            }
        }
    }

    private void failSend(long sendId) {
        Outstanding send = outstanding.remove(sendId);
        if (send != null) {
            sendTokens++;
            callbacks.addLast(() -> send.callback().sent(GmStatus.SEND_TARGET_PORT_CLOSED));
        }
    }

    private Peer peer(int to) {
        Peer peer = peers[to];
        if (peer == null) {
            RingFile peerFile = openPeerFile(pathOf(fabric, to, port));
            if (peerFile == null) {
                return null;
            }
            peer = new Peer(peerFile, peerFile.ring(node - 1));
            peers[to] = peer;
        }
        return peer;
    }

    // ---- the port's file ------------------------------------------------------------------------

    static Path pathOf(Path fabric, int node, int port) {
        return fabric.resolve("gm-node-" + node + "-port-" + port);
    }

    /** Maps another node's port file: null if there is none (yet, or any more). */
    private RingFile openPeerFile(Path at) {
        RingFile peerFile;
        try {
            peerFile = RingFile.open(at, KIND, arena);
        } catch (IllegalStateException e) {
            throw new GmException(e.getMessage());
        }
        if (peerFile != null && peerFile.rings() != nodes) {
            throw new GmException("emulated GM NIC: " + at + " is not a port file of this fabric: it has rings for "
                    + peerFile.rings() + " nodes, not " + nodes);
        }
        return peerFile;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        // What waits here for a buffer is refused, as GM refuses sends to a closed port (a sender
        // on this host also sees the flag below; one across the wire learns it only so).
        if (wire != null) {
            synchronized (fromWire) {
                closedToWire = true;
            }
            takeFromWire();
        }
        for (int from = 1; from <= nodes; from++) {
            for (ArrayDeque<Arrival> queue : held[from]) {
                for (Arrival arrival : queue) {
                    acknowledge(from, arrival.sendId(), GmStatus.SEND_TARGET_PORT_CLOSED);
                }
                queue.clear();
            }
        }
        closed = true;
        if (wire != null) {
            wire.detach(this);
        }
        file.setOpen(false);
        arena.close();
        try {
            Files.deleteIfExists(file.path());
        } catch (IOException ignored) {
            // the launcher removes the session directory anyway
        }
    }

    @Override
    public String toString() {
        return "emulated GM port " + port + " of node " + node;
    }
}
