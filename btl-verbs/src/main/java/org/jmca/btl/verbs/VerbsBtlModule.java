package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jmca.btl.base.RegistrationCache;
import org.jmca.btl.verbs.VerbsEndpoint.State;
import org.jmca.common.verbs.UdDevice;
import org.jmca.common.verbs.UdPort;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;

/**
 * {@code btl/verbs}: fragments over RC queue pairs, one per peer, made on demand through a UD
 * connection manager ({@link ConnectionManager}) and torn down when more than
 * {@code btl_verbs_max_conn} would be open (ACTS: the victim by LRU or LRU-M, its pending work
 * flushed, a BREAK exchanged both ways; the {@link ConnectionTable} keeps that count). This class
 * moves the data; those two make and break the connections that carry it.
 *
 * <p><b>Eager sends.</b> A fragment is copied into a registered send buffer and sent with
 * SEND_WITH_IMM, the active-message tag in the immediate data. Each connection pre-posts
 * {@code receiveBuffers} receive buffers; a sender may have that many fragments unreturned
 * (credits). The receiver reposts each buffer once the upcall returned and tells the sender how
 * many it has reposted by an RDMA WRITE into the sender's mailbox (a word per peer, registered
 * for remote write once per job), so credits never need a receive buffer of their own.
 *
 * <p><b>RDMA for rendezvous.</b> The sender exposes a large native buffer (registered through
 * the registration cache) and its rkey travels in ob1's rendezvous header; the receiver registers
 * its buffer in blocks and reads each block with RDMA READ as soon as it is registered (RGET).
 * When the sender's data is on the Java heap (which cannot be registered) and the receiver's
 * buffer is native, the receiver exposes its buffer in ob1's ACK and the sender writes into it
 * with RDMA WRITE, through registered bounce blocks (RPUT).
 *
 * <p><b>Connections.</b> A fragment for a peer without a connection waits in its endpoint while
 * the connection manager makes one; no fragment is sent once a connection is closing, and a
 * connection is closed only after every work request posted on it has completed.
 *
 * <p><b>Finalize.</b> A process leaves while its peers may still have work in flight to it: the
 * acknowledgement of the last fragment it took, the credits that fragment gives back. So, as
 * openib's tear-down does, it first waits (bounded) for its own work to complete, then says BYE
 * to every peer with a connection and waits (bounded) for each to answer - a peer answers once
 * it has taken what came and put its queue pair in ERR, so nothing of it is in flight to a
 * queue pair that is gone - and only then destroys its queue pairs. A peer that said BYE is no
 * error when work posted to it fails; a peer that went without a word (it died) still is.
 */
final class VerbsBtlModule implements BtlModule {
    /** Work requests a connection's send queue holds. */
    private static final int MAX_SEND_WR = ConnectionTable.MAX_SEND_WR;
    private static final long KIND_SEND = 1;
    private static final long KIND_CREDIT = 2;
    private static final long KIND_READ = 3;
    private static final long KIND_WRITE = 4;
    /** Bounce blocks for heap data written by RPUT when the pipeline is off. */
    private static final long DEFAULT_BOUNCE_BLOCK = 128 * 1024;
    /** The largest piece of one RDMA request (an sge's length is 32 bits). */
    private static final long MAX_RDMA_PIECE = 1L << 30;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /**
     * How long each of finalize's two waits (for its own work, for the peers' answers to BYE)
     * lasts at most: this, or {@link #FINALIZE_WAIT_RETRIES} connection-manager retries if longer.
     */
    private static final long FINALIZE_WAIT_NANOS = 100_000_000L;
    private static final int FINALIZE_WAIT_RETRIES = 40;

    private final int rank;
    private final VerbsSettings settings;
    private final Verbs device;
    private final Arena arena = Arena.ofShared();
    private final Verbs.ProtectionDomain pd;
    private final Verbs.CompletionQueue sendCq;
    private final Verbs.CompletionQueue recvCq;
    private final ConnectionTable connections;
    private final ConnectionManager cm;
    private final MemoryRegion sendBuffers;
    private final int[] freeSendBuffers;
    private int freeCount;
    /** Word i: how many of our fragments peer i has reposted buffers for (connection number in the high half). */
    private final MemoryRegion mailboxes;
    private final MemorySegment mailboxWords;
    /** Word i: the value last written into peer i's mailbox, the source of that RDMA WRITE. */
    private final MemoryRegion outbox;
    private final RegistrationCache<MemoryRegion> registrations;
    private final Map<Long, RegistrationCache.Entry<MemoryRegion>> exposed = new HashMap<>();
    private long nextExposure = 1;
    /** One array per queue: an upcall from a receive may poll the send queue (RGET) mid-loop. */
    private final WorkCompletion[] sendCompletions = new WorkCompletion[32];
    private final WorkCompletion[] recvCompletions = new WorkCompletion[32];
    private final Set<VerbsEndpoint> withPending = new LinkedHashSet<>();
    private BtlReceiver receiver;
    private int readsPending;
    private int writesPending;
    /** Two registered blocks through which RPUT writes heap data (made on first use). */
    private MemoryRegion bounce;
    /** In finalize: no upcall, no credit returned, a failed work request no error (the process leaves). */
    private boolean finalizing;

    private long rgetReads;
    private long rputWrites;
    private long exposeFailures;

    VerbsBtlModule(int rank, int size, Verbs device, VerbsSettings settings) {
        this.rank = rank;
        this.device = device;
        this.settings = settings;
        this.pd = device.allocPd();
        this.sendCq = device.createCq(4 * (settings.sendBuffers() + size + 64));
        this.recvCq = device.createCq(Math.max(1, size) * settings.receiveBuffers() + 64);
        this.connections = new ConnectionTable(rank, settings, device, pd, sendCq, recvCq);
        this.cm = new ConnectionManager(rank, settings, device, pd, arena, connections,
                new ConnectionManager.Sending() {
                    @Override
                    public int pollSends() {
                        return VerbsBtlModule.this.pollSends();
                    }

                    @Override
                    public void dropPending(VerbsEndpoint endpoint) {
                        endpoint.pending.clear();
                        withPending.remove(endpoint);
                    }
                });
        this.sendBuffers = pd.register(arena.allocate((long) settings.sendBuffers() * settings.maxSendSize(), 64), 0);
        this.freeSendBuffers = new int[settings.sendBuffers()];
        for (int i = 0; i < freeSendBuffers.length; i++) {
            freeSendBuffers[freeCount++] = freeSendBuffers.length - 1 - i;
        }
        this.mailboxWords = arena.allocate(8L * size, 64);
        this.mailboxes = pd.register(mailboxWords, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
        this.outbox = pd.register(arena.allocate(8L * size, 64), 0);
        this.registrations = new RegistrationCache<>(new RegistrationCache.Registrar<>() {
            @Override
            public MemoryRegion register(MemorySegment memory, int access) {
                return pd.register(memory, access);
            }

            @Override
            public void deregister(MemoryRegion registration) {
                pd.deregister(registration);
            }
        }, settings.registrationCache(), settings.registrationCacheBytes());
        UdDevice.publish(udDevice);
    }

    /** The device as coll/mcast sees it: UD queue pairs of its own. */
    private final UdDevice udDevice = new UdDevice() {
        @Override
        public UdPort open(int receiveBuffers) {
            return new VerbsUdPort(device, receiveBuffers);
        }

        @Override
        public String description() {
            return device.deviceName() + ", LID " + device.lid();
        }
    };

    @Override
    public String componentName() {
        return "verbs";
    }

    @Override
    public BtlProperties properties() {
        return settings.properties();
    }

    @Override
    public Map<String, String> localAddress() {
        Map<String, String> address = new HashMap<>(device.portAddress());
        address.put("verbs.lid", Integer.toString(device.lid()));
        address.put("verbs.cm_qpn", Integer.toString(cm.qpNum()));
        address.put("verbs.mailbox", mailboxes.address() + ":" + mailboxes.rkey());
        return address;
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        VerbsEndpoint[] endpoints = new VerbsEndpoint[peers.size()];
        connections.setEndpoints(endpoints);
        List<BtlEndpoint> result = new ArrayList<>();
        for (Peer peer : peers) {
            Map<String, String> address = peer.addresses();
            if (peer.rank() == rank || !address.containsKey("verbs.lid")) {
                result.add(null);
                continue;
            }
            device.learnPort(Integer.parseInt(address.get("verbs.lid")), peer.hostname(), address);
            String[] mailbox = address.get("verbs.mailbox").split(":");
            VerbsEndpoint endpoint = new VerbsEndpoint(this, peer.rank(), Integer.parseInt(address.get("verbs.lid")),
                    Integer.parseInt(address.get("verbs.cm_qpn")), Long.parseLong(mailbox[0]),
                    Integer.parseInt(mailbox[1]));
            endpoints[peer.rank()] = endpoint;
            result.add(endpoint);
        }
        return result;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    // ---- sending ---------------------------------------------------------------------------

    /**
     * Sends at once when the connection is up and has credit; otherwise keeps a copy (up to
     * {@code send_buffers} per peer) to send in order once it has, and starts the connection.
     */
    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        VerbsEndpoint endpoint = (VerbsEndpoint) to;
        if (endpoint.state == State.CONNECTED && endpoint.pending.isEmpty()
                && post(endpoint, tag, header, payload)) {
            return true;
        }
        if (endpoint.state == State.IDLE) {
            cm.connect(endpoint);
        }
        if (endpoint.pending.size() >= settings.sendBuffers()) {
            return false;
        }
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) (header.byteSize() + payload.byteSize())]);
        MemorySegment.copy(header, 0, copy, 0, header.byteSize());
        MemorySegment.copy(payload, 0, copy, header.byteSize(), payload.byteSize());
        endpoint.pending.addLast(new VerbsEndpoint.Fragment(tag, copy));
        withPending.add(endpoint);
        return true;
    }

    /** Posts one fragment over the connection; false without a credit, a send buffer or room on the send queue. */
    private boolean post(VerbsEndpoint endpoint, byte tag, MemorySegment header, MemorySegment payload) {
        if (freeCount == 0 || credits(endpoint) <= 0 || endpoint.outstanding >= MAX_SEND_WR - 1) {
            return false;
        }
        int buffer = freeSendBuffers[--freeCount];
        long at = sendBuffers.address() + (long) buffer * settings.maxSendSize();
        long headerBytes = header.byteSize();
        long length = headerBytes + payload.byteSize();
        MemorySegment.copy(header, 0, SoftVerbs.ALL, at, headerBytes);
        MemorySegment.copy(payload, 0, SoftVerbs.ALL, at + headerBytes, payload.byteSize());
        endpoint.qp.postSend(SendRequest.sendWithImm(workId(KIND_SEND, endpoint.rank, buffer),
                List.of(sendBuffers.sge(at, (int) length)), tag & 0xFF));
        endpoint.sent++;
        endpoint.outstanding++;
        connections.used(endpoint);
        return true;
    }

    /** Sends what waits for connections that are up; starts the connections of those that are not. */
    private int sendPending() {
        int events = 0;
        for (Iterator<VerbsEndpoint> it = withPending.iterator(); it.hasNext(); ) {
            VerbsEndpoint endpoint = it.next();
            if (endpoint.state == State.IDLE) {
                cm.connect(endpoint);
            }
            while (endpoint.state == State.CONNECTED && !endpoint.pending.isEmpty()) {
                VerbsEndpoint.Fragment fragment = endpoint.pending.peekFirst();
                if (!post(endpoint, fragment.tag(), fragment.bytes(), MemorySegment.NULL)) {
                    break;
                }
                endpoint.pending.removeFirst();
                events++;
            }
            if (endpoint.pending.isEmpty()) {
                it.remove();
            }
        }
        return events;
    }

    /** Fragments the peer can take now: its receive buffers less those holding our fragments it has not reposted. */
    private long credits(VerbsEndpoint endpoint) {
        long word = (long) LONG.getAcquire(mailboxWords, 8L * endpoint.rank);
        long reposted = (int) (word >>> 32) == endpoint.generation ? word & 0xFFFF_FFFFL : 0;
        return settings.receiveBuffers() - (endpoint.sent - reposted);
    }

    private static long workId(long kind, int peer, int index) {
        return kind << 56 | (long) peer << 28 | index;
    }

    // ---- RDMA for rendezvous -----------------------------------------------------------------

    @Override
    public boolean canGet(long bytes) {
        return true;
    }

    @Override
    public long exposeForGet(MemorySegment data) {
        return expose(data, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_READ);
    }

    @Override
    public boolean canPut(long bytes) {
        return true;
    }

    @Override
    public long exposeForPut(MemorySegment data) {
        return expose(data, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
    }

    /** Registers the memory (through the cache) for peers' RDMA; the key carries the rkey and which exposure it is. */
    private long expose(MemorySegment data, int access) {
        RegistrationCache.Entry<MemoryRegion> entry;
        try {
            entry = registrations.acquire(data, access);
        } catch (VerbsException e) {
            exposeFailures++;
            return NOT_EXPOSED;
        }
        long id = nextExposure++;
        exposed.put(id, entry);
        return id << 32 | (entry.registration().rkey() & 0xFFFF_FFFFL);
    }

    @Override
    public void unexpose(long key) {
        RegistrationCache.Entry<MemoryRegion> entry = exposed.remove(key >>> 32);
        if (entry != null) {
            registrations.release(entry);
        }
    }

    /**
     * RGET: reads the peer's exposed buffer with RDMA READ, registering ours in blocks of
     * {@code btl_verbs_rdma_pipeline_frag_size} so that each block is read as soon as it is
     * registered while the next one registers. Needs the connection up; without it the caller
     * falls back to the sender's fragments.
     */
    @Override
    public boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
        VerbsEndpoint endpoint = (VerbsEndpoint) from;
        if (endpoint.state != State.CONNECTED) {
            return false;
        }
        long total = local.byteSize();
        long block = settings.pipelineBlock() > 0 ? settings.pipelineBlock() : total;
        List<RegistrationCache.Entry<MemoryRegion>> used = new ArrayList<>();
        for (long offset = 0; offset < total; offset += block) {
            long length = Math.min(block, total - offset);
            while (endpoint.outstanding >= MAX_SEND_WR - 1) {
                pollSends();
            }
            RegistrationCache.Entry<MemoryRegion> entry = registrations.acquire(local.asSlice(offset, length),
                    Ibv.ACCESS_LOCAL_WRITE);
            used.add(entry);
            for (long part = 0; part < length; part += Integer.MAX_VALUE) {
                int bytes = (int) Math.min(Integer.MAX_VALUE, length - part);
                endpoint.qp.postSend(SendRequest.rdma(workId(KIND_READ, endpoint.rank, 0), Ibv.Opcode.RDMA_READ, List.of(
                        entry.registration().sge(local.address() + offset + part, bytes)),
                        remoteAddress + offset + part, (int) remoteKey));
                endpoint.outstanding++;
                readsPending++;
            }
        }
        while (readsPending > 0) {
            pollSends();
        }
        used.forEach(registrations::release);
        connections.used(endpoint);
        rgetReads++;
        return true;
    }

    /**
     * RPUT: writes {@code local} into the peer's exposed buffer with RDMA WRITE. Native data is
     * registered in blocks of {@code btl_verbs_rdma_pipeline_frag_size}, each written as soon as
     * it is registered; heap data, which cannot be registered, is copied into two registered
     * bounce blocks in turn, one filling while the other is written. Returns when every write has
     * completed, so a fragment sent next arrives after the data. Needs the connection up.
     */
    @Override
    public boolean put(BtlEndpoint to, MemorySegment local, long remoteAddress, long remoteKey) {
        VerbsEndpoint endpoint = (VerbsEndpoint) to;
        if (endpoint.state != State.CONNECTED) {
            return false;
        }
        long total = local.byteSize();
        List<RegistrationCache.Entry<MemoryRegion>> used = new ArrayList<>();
        if (local.isNative()) {
            long block = settings.pipelineBlock() > 0 ? settings.pipelineBlock() : total;
            for (long offset = 0; offset < total; offset += block) {
                long length = Math.min(block, total - offset);
                RegistrationCache.Entry<MemoryRegion> entry = registrations.acquire(local.asSlice(offset, length),
                        Ibv.ACCESS_LOCAL_WRITE);
                used.add(entry);
                for (long piece = 0; piece < length; piece += MAX_RDMA_PIECE) {
                    postWrite(endpoint, entry.registration().sge(local.address() + offset + piece,
                            (int) Math.min(MAX_RDMA_PIECE, length - piece)), remoteAddress + offset + piece, remoteKey);
                }
            }
        } else {
            long block = settings.pipelineBlock() > 0 ? settings.pipelineBlock() : DEFAULT_BOUNCE_BLOCK;
            if (bounce == null) {
                bounce = pd.register(arena.allocate(2 * block, 64), Ibv.ACCESS_LOCAL_WRITE);
            }
            int half = 0;
            for (long offset = 0; offset < total; offset += block, half ^= 1) {
                while (writesPending > 1) {
                    pollSends(); // the write out of this half, two blocks ago, must be done before refilling it
                }
                long length = Math.min(block, total - offset);
                long at = bounce.address() + half * block;
                MemorySegment.copy(local, offset, SoftVerbs.ALL, at, length);
                postWrite(endpoint, bounce.sge(at, (int) length), remoteAddress + offset, remoteKey);
            }
        }
        while (writesPending > 0) {
            pollSends();
        }
        used.forEach(registrations::release);
        connections.used(endpoint);
        rputWrites++;
        return true;
    }

    private void postWrite(VerbsEndpoint endpoint, Sge from, long remoteAddress, long remoteKey) {
        while (endpoint.outstanding >= MAX_SEND_WR - 1) {
            pollSends();
        }
        endpoint.qp.postSend(SendRequest.rdma(workId(KIND_WRITE, endpoint.rank, 0), Ibv.Opcode.RDMA_WRITE, List.of(from),
                remoteAddress, (int) remoteKey));
        endpoint.outstanding++;
        writesPending++;
    }

    // ---- progress --------------------------------------------------------------------------

    @Override
    public int progress() {
        int events = cm.poll() + pollSends() + pollReceives();
        if (cm.hasGoodbyes()) {
            events += takeGoodbyes();
        }
        events += cm.advance();
        if (connections.overLimit()) {
            // A request accepted above the limit: tear down as soon as a connection can be (even
            // when every connection is up and nothing else is changing).
            connections.evict(null);
        }
        if (!withPending.isEmpty()) {
            events += sendPending();
        }
        return events;
    }

    private int pollSends() {
        int n = sendCq.poll(sendCompletions, sendCompletions.length);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = sendCompletions[i];
            long kind = wc.wrId() >>> 56;
            VerbsEndpoint endpoint = connections.endpoint((int) (wc.wrId() >>> 28 & 0x0FFF_FFFF));
            if (!wc.ok() && wc.status() != Ibv.WcStatus.WR_FLUSH_ERR && !finalizing && !endpoint.peerFinalized) {
                cm.poll(); // a BYE that came meanwhile (this poll may be inside an RDMA loop, not progress)
                if (!endpoint.peerFinalized) {
                    throw new McaException("btl/verbs: rank " + rank + ": a " + wc.opcode() + " to rank " + endpoint.rank
                            + " failed with IBV_WC_" + wc.status() + " (" + endpoint + ")");
                }
            }
            endpoint.outstanding--;
            // A credit return skipped while the send queue was full goes now: if it waited for the
            // next receive, a peer out of credits would never send that receive (a deadlock).
            returnCredits(endpoint);
            if (kind == KIND_SEND) {
                freeSendBuffers[freeCount++] = (int) (wc.wrId() & 0x0FFF_FFFF);
            } else if (kind == KIND_READ) {
                readsPending--;
            } else if (kind == KIND_WRITE) {
                writesPending--;
            }
        }
        return n;
    }

    private int pollReceives() {
        int n = recvCq.poll(recvCompletions, recvCompletions.length);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = recvCompletions[i];
            VerbsEndpoint endpoint = connections.byQpn(wc.qpNum());
            if (endpoint == null || wc.status() == Ibv.WcStatus.WR_FLUSH_ERR) {
                continue;
            }
            if (!wc.ok()) {
                throw new McaException("btl/verbs: rank " + rank + ": a receive from rank " + endpoint.rank
                        + " failed with IBV_WC_" + wc.status());
            }
            if (endpoint.state == State.ACCEPTED) {
                connections.established(endpoint);
            }
            int buffer = (int) wc.wrId();
            long offset = (long) buffer * settings.maxSendSize();
            endpoint.received++;
            connections.used(endpoint);
            if (!finalizing) { // the layers above have finalized: what still comes is nothing they wait for
                receiver.onFragment(endpoint, (byte) wc.immData(), endpoint.receiveSlab, offset, wc.byteLength());
            }
            if (endpoint.qp != null && connections.byQpn(wc.qpNum()) == endpoint) {
                connections.postReceive(endpoint, buffer);
                endpoint.reposted++;
                returnCredits(endpoint);
            }
        }
        return n;
    }

    /** Tells the peer, by an RDMA WRITE into its mailbox, how many buffers we reposted, once half its credits are back. */
    private void returnCredits(VerbsEndpoint endpoint) {
        if (finalizing || endpoint.state != State.CONNECTED
                || endpoint.reposted - endpoint.repostedTold < settings.receiveBuffers() / 2
                || endpoint.outstanding >= MAX_SEND_WR - 1) {
            return;
        }
        long at = outbox.address() + 8L * endpoint.rank;
        MemorySegment.ofAddress(at).reinterpret(8).set(ValueLayout.JAVA_LONG, 0,
                (long) endpoint.generation << 32 | endpoint.reposted);
        endpoint.qp.postSend(SendRequest.rdma(workId(KIND_CREDIT, endpoint.rank, 0), Ibv.Opcode.RDMA_WRITE, List.of(outbox.sge(at, 8)),
                endpoint.mailboxAddress + 8L * rank, endpoint.mailboxRkey));
        endpoint.outstanding++;
        endpoint.repostedTold = endpoint.reposted;
    }

    /**
     * Lets go of the connections of the peers that said BYE: the queue pair goes to ERR (its
     * sends are flushed, so none can fail on the peer's queue pair once it is gone), the
     * fragments that came on it before the BYE are taken (delivered as usual), what waits for it
     * is dropped (the peer takes nothing more), and then the peer is answered.
     */
    private int takeGoodbyes() {
        List<VerbsEndpoint> left = cm.takeGoodbyes();
        for (VerbsEndpoint endpoint : left) {
            if (endpoint.qp != null) {
                connections.change(endpoint, State.CLOSING); // nothing is posted on it from here on
                QpAttributes error = new QpAttributes().state(Ibv.QpState.ERR);
                endpoint.qp.modify(error, error.mask());
                while (endpoint.outstanding > 0 && pollSends() > 0) {
                    // taking the flushed completions: they give the send buffers back
                }
                endpoint.outstanding = 0;
                while (pollReceives() > 0) {
                    // the fragments that came before the BYE, then the flushed receives
                }
                connections.closeQueuePair(endpoint, false); // IDLE
            } else if (endpoint.state != State.IDLE) {
                connections.change(endpoint, State.IDLE);
            }
            endpoint.pending.clear();
            withPending.remove(endpoint);
            cm.answerGoodbye(endpoint);
        }
        return left.size();
    }

    @Override
    public boolean hasPendingSends() {
        return !withPending.isEmpty() || connections.anyOutstanding();
    }

    // ---- counters and lifecycle ----------------------------------------------------------------

    static final Counter CONNECTIONS_MADE = new Counter("btl_verbs_connections_made", "RC connections established");
    static final Counter RECONNECTIONS = new Counter("btl_verbs_reconnections",
            "connections made again to a peer torn down before");
    static final Counter TEAR_DOWNS = new Counter("btl_verbs_tear_downs", "connections torn down (ACTS)");
    static final Counter OPEN_CONNECTIONS = new Counter("btl_verbs_open_connections", "RC connections open now");
    static final Counter PEAK_CONNECTIONS = new Counter("btl_verbs_peak_connections", "most RC connections open at once");
    static final Counter CONNECTION_BYTES = new Counter("btl_verbs_connection_bytes",
            "receive-buffer bytes one connection holds (receive_buffers x max_send_size)");
    static final Counter CM_RESENDS = new Counter("btl_verbs_cm_resends", "connection-manager datagrams sent again");
    static final Counter RGET = new Counter("btl_verbs_rget", "rendezvous messages read with RDMA READ");
    static final Counter RPUT = new Counter("btl_verbs_rput", "rendezvous messages written with RDMA WRITE");
    static final Counter REG_CACHE_HITS = new Counter("btl_verbs_reg_cache_hits", "registrations found in the cache");
    static final Counter REG_CACHE_MISSES = new Counter("btl_verbs_reg_cache_misses", "registrations made");
    static final Counter EXPOSE_FAILURES = new Counter("btl_verbs_expose_failures",
            "rendezvous buffers that could not be registered");
    static final Counter RNR_RETRIES = new Counter("btl_verbs_rnr_retries",
            "sends retried after an RNR NAK (software device)");
    static final Counter TRANSPORT_RETRIES = new Counter("btl_verbs_transport_retries",
            "sends retried after a lost packet (software device)");
    /** Every counter, in the order jmca-info lists them. */
    static final List<Counter> COUNTERS = List.of(CONNECTIONS_MADE, RECONNECTIONS, TEAR_DOWNS, OPEN_CONNECTIONS,
            PEAK_CONNECTIONS, CONNECTION_BYTES, CM_RESENDS, RGET, RPUT, REG_CACHE_HITS, REG_CACHE_MISSES,
            EXPOSE_FAILURES, RNR_RETRIES, TRANSPORT_RETRIES);

    @Override
    public List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> all = new ArrayList<>(List.of(
                CONNECTIONS_MADE.readBy(connections::connectionsMade),
                RECONNECTIONS.readBy(connections::reconnections),
                TEAR_DOWNS.readBy(connections::tearDowns),
                OPEN_CONNECTIONS.readBy(connections::open),
                PEAK_CONNECTIONS.readBy(connections::peakConnections),
                CONNECTION_BYTES.readBy(() -> (long) settings.receiveBuffers() * settings.maxSendSize()),
                CM_RESENDS.readBy(cm::resends),
                RGET.readBy(() -> rgetReads),
                RPUT.readBy(() -> rputWrites),
                REG_CACHE_HITS.readBy(registrations::hits),
                REG_CACHE_MISSES.readBy(registrations::misses),
                EXPOSE_FAILURES.readBy(() -> exposeFailures)));
        if (device instanceof SoftVerbs soft) {
            all.add(RNR_RETRIES.readBy(() -> soft.rnrRetries));
            all.add(TRANSPORT_RETRIES.readBy(() -> soft.transportRetries));
        }
        return all;
    }

    /**
     * Waits, bounded, for this process's work to complete, then tells every peer with a
     * connection BYE and waits, bounded, for its answer (see the class comment), then releases.
     * Throws nothing for a peer that is gone: this process leaves anyway.
     */
    @Override
    public void finalizeModule() {
        finalizing = true;
        for (VerbsEndpoint endpoint : withPending) {
            endpoint.pending.clear(); // the layers above flushed: nothing that waits here is awaited
        }
        withPending.clear();
        long wait = Math.max(FINALIZE_WAIT_NANOS, FINALIZE_WAIT_RETRIES * settings.cmRetryNanos());
        long deadline = System.nanoTime() + wait;
        while (connections.anyOutstanding() && System.nanoTime() < deadline) {
            progressWhileFinalizing();
        }
        try {
            cm.sayGoodbye();
        } catch (RuntimeException e) {
            verbose("BYE not sent", e);
        }
        deadline = System.nanoTime() + wait;
        while (System.nanoTime() < deadline) {
            progressWhileFinalizing();
            if (!cm.awaitingGoodbyes()) {
                break;
            }
        }
        release();
    }

    /** One turn of progress in finalize: arrivals taken and BYEs answered; what fails is reported only when verbose. */
    private void progressWhileFinalizing() {
        try {
            cm.poll();
            pollSends();
            pollReceives();
            if (cm.hasGoodbyes()) {
                takeGoodbyes();
            }
        } catch (RuntimeException e) {
            verbose("in finalize", e);
        }
    }

    private void verbose(String what, RuntimeException e) {
        if (settings.verbose()) {
            System.err.println("btl/verbs: rank " + rank + ": " + what + ": " + e.getMessage());
        }
    }

    /**
     * Destroys the queue pairs and releases the device without a word to the peers: the end of
     * {@link #finalizeModule}, and what a process that dies leaves behind (tests stage it so).
     */
    void release() {
        UdDevice.withdraw(udDevice);
        connections.destroyAll();
        registrations.clear();
        cm.destroy();
        device.close();
        arena.close();
    }

    /** Every endpoint's connection state, one per line: what a hang report shows. */
    String describeConnections() {
        return connections.describe();
    }

    @Override
    public String toString() {
        return "btl/verbs on " + device.deviceName() + " (LID " + device.lid() + ")";
    }
}
