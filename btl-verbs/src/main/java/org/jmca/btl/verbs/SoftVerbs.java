package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.btl.base.CrossMemory;
import org.jmca.btl.base.SharedRing;

/**
 * The software verbs device ({@code btl_verbs_device soft}): the semantics of an InfiniBand HCA
 * kept between the processes of a job on one host, so that every protocol above verbs runs and is
 * tested on machines without one.
 *
 * <p>Each process opens one port, a file in the fabric's directory ({@link SoftPort}) holding its
 * table of memory regions and one inbound ring per sending port. Packets travel through the
 * rings; RDMA READ and WRITE copy straight between the two processes' memories
 * ({@code process_vm_readv}/{@code writev}) after the responder's region table has checked the
 * rkey, range and access, as the responder's HCA would. What is kept:
 * <ul>
 * <li>protection domains; memory regions with lkey and rkey and their access flags checked on both
 *     sides; registration pins the pages ({@link Pinning});
 * <li>completion queues of a fixed depth that overrun (the poll then fails, as after
 *     {@code IBV_EVENT_CQ_ERR});
 * <li>the QP state machine with the attribute masks of {@code ibv_modify_qp(3)}; work posted in ERR
 *     is flushed;
 * <li>RC: packet sequence numbers, in order and exactly once; a SEND with no receive posted gets an
 *     RNR NAK and is retried after the responder's {@code min_rnr_timer}, {@code rnr_retry} times
 *     (7: for ever), then fails with {@code IBV_WC_RNR_RETRY_EXC_ERR}; go-back-N from the NAKed
 *     packet; send completions when the responder acknowledged; a lost packet (link down, peer
 *     dead) is retried after the ACK {@code timeout}, {@code retry_cnt} times, then fails with
 *     {@code IBV_WC_RETRY_EXC_ERR}; an error moves the QP to ERR and flushes its other work;
 * <li>UD: Q_Key checked, at most the path MTU, the 40-byte GRH at the start of the receive buffer,
 *     dropped when no receive is posted; seeded loss, duplication and reordering ({@link SoftFaults}).
 * </ul>
 * Ports on other hosts (or every port, with {@link Network#socketToEveryPort}) are reached
 * through {@link SoftWire}: a socket per pair of ports whose remote agent puts packets into its
 * port's rings and carries out RDMA and atomics on its own process's memory.
 * What differs from hardware: progress happens inside the device's calls (post, poll) of each
 * process, as in a software device without a kernel thread; so a responder acknowledges only when
 * its process next polls, and a packet is counted lost only when it really was (the link was
 * down or the peer is gone) — the rings themselves lose nothing, so a slow responder is never
 * mistaken for a dead one. Atomics (fetch-and-add, compare-and-swap) are atomic with respect
 * to each other, under the target port's lock, as {@code IBV_ATOMIC_HCA} promises. Multicast:
 * each port lists its queue pairs' attachments in its file; a datagram sent to a multicast LID
 * goes to every attached queue pair of every open port (this one's too), each copy lost,
 * duplicated or reordered on its own as the seeded faults say — as a switch replicates it.
 */
public final class SoftVerbs implements Verbs {
    static final byte RC_SEND = 1;
    static final byte RC_SEND_IMM = 2;
    static final byte RC_WRITE_IMM = 3;
    static final byte ACK = 4;
    static final byte RNR_NAK = 5;
    static final byte UD_SEND = 6;
    static final byte UD_SEND_IMM = 7;

    static final String WIRE_KEY = "verbs.soft_wire";
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final int MTU = 5;

    private final Path fabric;
    private final int lid;
    private final int ringCapacity;
    private final Arena arena = Arena.ofShared();
    private final SoftPort port;
    private final SoftPort[] peers;
    private final SharedRing[] toPeer;
    private final SharedRing[] fromPeer;
    private final SharedRing.Handler[] handlers;
    private final SoftFaults faults;
    private final CrossMemory crossMemory;
    /** The socket to ports on other hosts (null: every port is on this host), and which LIDs it reaches. */
    private final Network network;
    private final SoftWire wire;
    private final boolean[] remote;
    private final Map<Integer, SoftQueuePair> queuePairs = new HashMap<>();
    private final List<SoftQueuePair> acksDue = new ArrayList<>();
    /** Queue pairs with sends outstanding: the only ones progress must visit as requesters. */
    private final List<SoftQueuePair> requesting = new ArrayList<>();
    private final Region[] regions = new Region[SoftPort.MR_SLOTS];
    private final BitSet usedSlots = new BitSet(SoftPort.MR_SLOTS);
    private int keyGeneration;
    private int nextQpn = 1;
    private int nextPd = 1;
    /** A datagram held back to be sent after the next one (reordering fault). */
    private Runnable heldDatagram;
    private MemorySegment gather = MemorySegment.NULL;
    private boolean progressing;

    long rnrRetries;
    long transportRetries;

    /**
     * How this port meets ports on other hosts: its host's name (a peer on another host is
     * reached by socket), the job's key (which the socket's peer must show), and whether every
     * port, even on this host, is reached by socket (to test the wire on one host).
     */
    public record Network(String hostname, byte[] jobKey, boolean socketToEveryPort) {
    }

    /** A memory region as its owner knows it. */
    record Region(int slot, int key, int pd, long address, long length, int access) {
        boolean covers(long from, long bytes) {
            return from >= address && bytes >= 0 && from + bytes <= address + length;
        }
    }

    private SoftVerbs(Path fabric, int lid, int ports, int ringCapacity, SoftFaults faults, Network network) {
        this.fabric = fabric;
        this.lid = lid;
        this.ringCapacity = ringCapacity;
        this.faults = faults;
        this.port = SoftPort.create(fabric, lid, ports, ringCapacity, arena);
        this.peers = new SoftPort[ports + 1];
        this.toPeer = new SharedRing[ports + 1];
        this.fromPeer = new SharedRing[ports + 1];
        this.handlers = new SharedRing.Handler[ports + 1];
        for (int from = 1; from <= ports; from++) {
            fromPeer[from] = port.ring(from);
            int sender = from;
            handlers[from] = (tag, data, offset, length) -> {
                if (length < 16 || !isPacket(tag)) {
                    throw new org.jmca.mca.McaException("verbs soft device: port " + lid + " received a corrupt packet"
                            + " from LID " + sender + ": " + length + " bytes of type " + tag + " (types 1.." + UD_SEND_IMM
                            + ", at least 16 bytes)");
                }
                onPacket(sender, tag, data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset),
                        data.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8), offset + 16, (int) length - 16);
            };
        }
        this.crossMemory = new CrossMemory(arena);
        this.network = network;
        this.wire = network == null ? null : new SoftWire(this, port, lid, network.jobKey(), ringCapacity);
        this.remote = new boolean[ports + 1];
    }

    /**
     * Opens the port of {@code lid} (1..ports) in the fabric directory shared by the job's
     * processes; every port must have been opened before packets are sent to it.
     *
     * @param ringCapacity bytes of each inbound ring, a power of two: the largest RC message is a
     *                     quarter of it
     */
    public static SoftVerbs open(Path fabric, int lid, int ports, int ringCapacity, SoftFaults faults) {
        return open(fabric, lid, ports, ringCapacity, faults, null);
    }

    /** Opens the port with a wire to ports on other hosts (see {@link Network}); null: this host only. */
    public static SoftVerbs open(Path fabric, int lid, int ports, int ringCapacity, SoftFaults faults,
                                 Network network) {
        String why = CrossMemory.probe();
        if (why != null) {
            throw new VerbsException("the soft verbs device needs cross-memory copies for RDMA: " + why);
        }
        return new SoftVerbs(fabric, lid, ports, ringCapacity, faults, network);
    }

    /** Where ports on other hosts reach this one: its socket's addresses. */
    @Override
    public Map<String, String> portAddress() {
        return wire == null ? Map.of() : Map.of(WIRE_KEY, wire.address());
    }

    /** A port on another host (or any port, with {@code socketToEveryPort}) is reached through the wire. */
    @Override
    public void learnPort(int peerLid, String hostname, Map<String, String> address) {
        if (wire == null || peerLid == lid || !(network.socketToEveryPort() || !hostname.equals(network.hostname()))) {
            return;
        }
        String at = address.get(WIRE_KEY);
        if (at == null) {
            throw new VerbsException("verbs soft device: port " + peerLid + " on " + hostname
                    + " published no wire address, so it cannot be reached from " + network.hostname());
        }
        wire.learn(peerLid, at);
        remote[peerLid] = true;
    }

    boolean isRemote(int peerLid) {
        return peerLid > 0 && peerLid < remote.length && remote[peerLid];
    }

    SoftWire wire() {
        return wire;
    }

    /** Why this process cannot run the soft device, or null if it can. */
    public static String probe() {
        return CrossMemory.probe();
    }

    @Override
    public String deviceName() {
        return "soft0";
    }

    @Override
    public int lid() {
        return lid;
    }

    @Override
    public int activeMtu() {
        return MTU;
    }

    public SoftFaults faults() {
        return faults;
    }

    /** The largest RC message: a quarter of a ring. */
    public int maxMessage() {
        return ringCapacity / 4;
    }

    @Override
    public ProtectionDomain allocPd() {
        return new SoftPd(nextPd++);
    }

    @Override
    public CompletionQueue createCq(int depth) {
        if (depth < 1) {
            throw new VerbsException("ibv_create_cq: depth " + depth + " must be at least 1");
        }
        return new SoftCq(depth);
    }

    @Override
    public void close() {
        boolean stopped = wire == null || wire.close();
        port.markDown();
        if (stopped) {
            arena.close();
        }
        try {
            java.nio.file.Files.deleteIfExists(port.path);
        } catch (java.io.IOException ignored) {
            // The launcher removes the session directory anyway.
        }
    }

    // ---- memory regions --------------------------------------------------------------------

    Region region(int lkey) {
        int slot = (lkey & 0xFFFF) - 1;
        if (slot < 0 || slot >= regions.length) {
            return null;
        }
        Region region = regions[slot];
        return region != null && region.key() == lkey ? region : null;
    }

    /** True if every element names a region of {@code pd} that holds it and allows {@code access}. */
    boolean checkLocal(List<Sge> sges, int pd, int access) {
        for (Sge sge : sges) {
            Region region = region(sge.lkey());
            if (region == null || region.pd() != pd || !region.covers(sge.address(), sge.length())
                    || (region.access() & access) != access) {
                return false;
            }
        }
        return true;
    }

    private final class SoftPd implements ProtectionDomain {
        private final int id;
        private int live;

        SoftPd(int id) {
            this.id = id;
        }

        @Override
        public MemoryRegion register(MemorySegment memory, int access) {
            if (!memory.isNative()) {
                throw new VerbsException("ibv_reg_mr: only native memory can be registered, not " + memory);
            }
            if ((access & (Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_ATOMIC)) != 0
                    && (access & Ibv.ACCESS_LOCAL_WRITE) == 0) {
                throw new VerbsException("ibv_reg_mr: EINVAL: remote write or atomic access (access=" + access
                        + ") needs IBV_ACCESS_LOCAL_WRITE");
            }
            int slot = usedSlots.nextClearBit(0);
            if (slot >= SoftPort.MR_SLOTS) {
                throw new VerbsException("ibv_reg_mr: ENOMEM: all " + SoftPort.MR_SLOTS + " memory regions are in use");
            }
            Pinning.pin(memory.address(), memory.byteSize());
            keyGeneration = (keyGeneration + 1) & 0x7FFF;
            int key = (keyGeneration + 1) << 16 | (slot + 1);
            usedSlots.set(slot);
            regions[slot] = new Region(slot, key, id, memory.address(), memory.byteSize(), access);
            port.publishRegion(slot, key, access, id, memory.address(), memory.byteSize());
            live++;
            return new MemoryRegion(memory.address(), memory.byteSize(), key, key, access);
        }

        @Override
        public void deregister(MemoryRegion mr) {
            Region region = region(mr.lkey());
            if (region == null || region.pd() != id) {
                throw new VerbsException("ibv_dereg_mr: EINVAL: lkey " + Integer.toHexString(mr.lkey())
                        + " is not a live region of this protection domain");
            }
            port.withdrawRegion(region.slot());
            regions[region.slot()] = null;
            usedSlots.clear(region.slot());
            Pinning.unpin(region.address(), region.length());
            live--;
        }

        @Override
        public QueuePair createQp(Ibv.QpType type, CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr,
                                  int maxRecvWr) {
            if (maxSendWr < 1 || maxRecvWr < 1) {
                throw new VerbsException("ibv_create_qp: EINVAL: max_send_wr=" + maxSendWr + " and max_recv_wr="
                        + maxRecvWr + " must be at least 1");
            }
            SoftQueuePair qp = new SoftQueuePair(SoftVerbs.this, this, id, type, nextQpn++ & 0xFFFFFF, (SoftCq) sendCq,
                    (SoftCq) recvCq, maxSendWr, maxRecvWr);
            queuePairs.put(qp.qpNum(), qp);
            live++;
            return qp;
        }

        @Override
        public void deallocate() {
            if (live > 0) {
                throw new VerbsException("ibv_dealloc_pd: EBUSY: " + live + " regions or queue pairs still use it");
            }
        }

        void released() {
            live--;
        }
    }

    void destroyed(SoftQueuePair qp, ProtectionDomain pd) {
        ((SoftPd) pd).released();
        queuePairs.remove(qp.qpNum());
        acksDue.remove(qp);
        requesting.remove(qp);
    }

    // ---- completion queues -----------------------------------------------------------------

    final class SoftCq implements CompletionQueue {
        private final int depth;
        private final ArrayDeque<WorkCompletion> entries = new ArrayDeque<>();
        private boolean overrun;

        SoftCq(int depth) {
            this.depth = depth;
        }

        void push(WorkCompletion completion) {
            if (entries.size() >= depth) {
                overrun = true;
                return;
            }
            entries.addLast(completion);
        }

        @Override
        public int poll(WorkCompletion[] into, int max) {
            progress();
            if (overrun) {
                throw new VerbsException("ibv_poll_cq: the completion queue overran its depth of " + depth
                        + " (IBV_EVENT_CQ_ERR): completions were lost");
            }
            int n = 0;
            while (n < max && !entries.isEmpty()) {
                into[n++] = entries.pollFirst();
            }
            return n;
        }

        /** Nothing interrupts a process here: it polls, napping between polls, until something came or the time passed. */
        @Override
        public int pollBlocking(WorkCompletion[] into, int max, long timeoutNanos) {
            long deadline = System.nanoTime() + timeoutNanos;
            int n;
            while ((n = poll(into, max)) == 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000);
            }
            return n;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public void destroy() {
            entries.clear();
        }
    }

    // ---- the wire --------------------------------------------------------------------------

    private SoftPort peer(int peerLid) {
        SoftPort p = peers[peerLid];
        if (p == null) {
            p = peerLid == lid ? port : SoftPort.open(fabric, peerLid, arena);
            if (p != null) {
                peers[peerLid] = p;
                toPeer[peerLid] = p.ring(lid);
            }
        }
        return p;
    }

    @Override
    public boolean portActive(int lid) {
        return peerUp(lid);
    }

    /** True if the port of {@code peerLid} exists, is up and its process lives. */
    boolean peerUp(int peerLid) {
        if (isRemote(peerLid)) {
            return wire.up(peerLid);
        }
        SoftPort p = peer(peerLid);
        return p != null && p.up();
    }

    long peerPid(int peerLid) {
        SoftPort p = peer(peerLid);
        return p == null ? -1 : p.pid;
    }

    SoftPort peerPort(int peerLid) {
        return peer(peerLid);
    }

    /**
     * Puts one packet on the wire to {@code peerLid}. Returns false if it cannot go now (the
     * peer's ring is full); true if it went — or was lost on a link that is down or to a port
     * that is not there.
     */
    boolean transmit(int peerLid, byte tag, long header0, long header1, MemorySegment payload) {
        if (faults.linkDown()) {
            return true;
        }
        if (peerLid < 1 || peerLid >= peers.length) {
            return false;
        }
        if (remote[peerLid]) {
            return wire.offer(peerLid, tag, header0, header1, payload);
        }
        if (peer(peerLid) == null) {
            return true; // no such port (its process is gone, or never came): the packet is lost
        }
        return toPeer[peerLid].offer(tag, header0, header1, payload);
    }

    /** The bytes of a gather list as one segment: a view of the memory when one element, else a copy. */
    MemorySegment gather(List<Sge> sges, long total) {
        if (sges.size() == 1) {
            return ALL.asSlice(sges.getFirst().address(), sges.getFirst().length());
        }
        if (gather.byteSize() < total) {
            gather = arena.allocate(Math.max(total, 2 * gather.byteSize()), 64);
        }
        long at = 0;
        for (Sge sge : sges) {
            MemorySegment.copy(ALL, sge.address(), gather, at, sge.length());
            at += sge.length();
        }
        return gather.asSlice(0, total);
    }

    /** Copies {@code length} bytes at absolute address {@code from} into the scatter list, after {@code skip} bytes of it. */
    static void scatter(long from, long length, List<Sge> sges, long skip) {
        long done = 0;
        for (Sge sge : sges) {
            if (done >= length) {
                break;
            }
            if (skip >= sge.length()) {
                skip -= sge.length();
                continue;
            }
            long n = Math.min(sge.length() - skip, length - done);
            MemorySegment.copy(ALL, from + done, ALL, sge.address() + skip, n);
            done += n;
            skip = 0;
        }
    }

    CrossMemory crossMemory() {
        return crossMemory;
    }

    /** Sends a datagram with the seeded faults applied. */
    void sendDatagram(int peerLid, byte tag, long header0, long header1, MemorySegment payload) {
        if (faults.loseDatagram()) {
            return;
        }
        int copies = faults.duplicateDatagram() ? 2 : 1;
        MemorySegment bytes = faults.any() ? Arena.ofAuto().allocate(Math.max(1, payload.byteSize())).asSlice(0,
                payload.byteSize()).copyFrom(payload) : payload;
        Runnable send = () -> {
            for (int i = 0; i < copies; i++) {
                transmit(peerLid, tag, header0, header1, bytes); // a full ring drops it: UD is unreliable
            }
        };
        Runnable held = heldDatagram;
        heldDatagram = null;
        if (held == null && faults.reorderDatagram()) {
            heldDatagram = send;
            return;
        }
        send.run();
        if (held != null) {
            held.run();
        }
    }

    void attach(int mlid, int qpn) {
        if (!port.attach(mlid, qpn)) {
            throw new VerbsException("ibv_attach_mcast: ENOMEM: all " + SoftPort.GROUP_SLOTS
                    + " multicast attachments of the port are in use");
        }
    }

    void detach(int mlid, int qpn) {
        port.detach(mlid, qpn);
    }

    /** Sends a datagram to each queue pair attached to the group of {@code mlid}, on every port that is open. */
    void sendMulticast(int mlid, byte tag, int sourceQp, long header1, MemorySegment payload) {
        for (int to = 1; to < peers.length; to++) {
            if (remote[to]) {
                if (!faults.loseDatagram()) {
                    wire.multicast(to, mlid, tag == UD_SEND_IMM, sourceQp, header1, payload);
                }
                continue;
            }
            SoftPort p = peer(to);
            if (p != null && p.open()) {
                int peerLid = to;
                p.forEachMember(mlid, qpn -> sendDatagram(peerLid, tag, (qpn & 0xFFFFFFFFL) | (long) sourceQp << 32,
                        header1, payload));
            }
        }
    }

    // ---- progress --------------------------------------------------------------------------

    /** Takes what arrived, retransmits what is due, sends the ACKs owed. */
    void progress() {
        if (progressing) {
            return;
        }
        progressing = true;
        try {
            if (wire != null) {
                wire.takeCompletions();
            }
            for (int from = 1; from < fromPeer.length; from++) {
                fromPeer[from].poll(handlers[from]);
            }
            for (int i = requesting.size() - 1; i >= 0; i--) {
                SoftQueuePair qp = requesting.get(i);
                qp.requesterProgress();
                if (!qp.requesting()) {
                    requesting.remove(i);
                }
            }
            for (int i = acksDue.size() - 1; i >= 0; i--) {
                if (acksDue.get(i).sendAck()) {
                    acksDue.remove(i);
                }
            }
            if (heldDatagram != null && faults.any()) {
                Runnable held = heldDatagram;
                heldDatagram = null;
                held.run();
            }
        } finally {
            progressing = false;
        }
    }

    /** The queue pair has sends outstanding: progress visits it until it has none. */
    void requesting(SoftQueuePair qp) {
        if (!requesting.contains(qp)) {
            requesting.add(qp);
        }
    }

    void ackDue(SoftQueuePair qp) {
        if (!acksDue.contains(qp)) {
            acksDue.add(qp);
        }
    }

    /** True for the packet types of the device's rings (what a remote port's agent may forward into them). */
    static boolean isPacket(byte tag) {
        return tag >= RC_SEND && tag <= UD_SEND_IMM;
    }

    private void onPacket(int fromLid, byte tag, long header0, long header1, long at, int length) {
        SoftQueuePair qp = queuePairs.get((int) header0);
        if (qp == null) {
            return;
        }
        int sourceQp = (int) (header0 >>> 32);
        switch (tag) {
            case RC_SEND, RC_SEND_IMM, RC_WRITE_IMM -> qp.onRequest(fromLid, sourceQp, tag, (int) header1,
                    (int) (header1 >>> 32), at, length);
            case ACK -> qp.onAck(fromLid, sourceQp, (int) header1);
            case RNR_NAK -> qp.onRnrNak(fromLid, sourceQp, (int) header1, (int) (header1 >>> 32));
            case UD_SEND, UD_SEND_IMM -> qp.onDatagram(fromLid, sourceQp, tag == UD_SEND_IMM, (int) header1,
                    (int) (header1 >>> 32), at, length);
            default -> throw new IllegalStateException("verbs soft device: unknown packet type " + tag);
        }
    }
}
