package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.VerbsEndpoint.State;

/**
 * The module's RC connections, at most one per peer: each endpoint's connection state and the
 * queue pair behind it (made with its receive buffers, brought to RTS, destroyed), and what ACTS
 * keeps to hold the process to {@code btl_verbs_max_conn} — the count of open connections, a clock
 * of each connection's last use, and the choice of the victim by the {@link VictimPolicy}.
 *
 * <p>It sends nothing: the {@link ConnectionManager} moves connections from state to state through
 * it, and the module asks it whose a completion is and marks each use. Kept apart so that the
 * module's eager sends and RDMA read the same whether a process keeps every connection or few.
 *
 * <p>{@code max_conn} bounds the connections of this process, both those it asks for and those
 * it accepts: at the limit, a peer's request waits while a connection is torn down to make room.
 * Only when nothing can be torn down (every connection is still being made) is a request
 * accepted above the limit — refusing it then could deadlock a ring of full processes each
 * waiting for the next — and the process tears down again as soon as it can.
 *
 * <p>Threads: the thread that owns progress, as the module's.
 */
final class ConnectionTable {
    /** Work requests a connection's send queue holds. */
    static final int MAX_SEND_WR = 64;
    /** A connection younger than this that has carried nothing is no victim: it was made for what is about to go. */
    private static final long NEW_CONNECTION_GRACE_NANOS = 50_000_000L;

    private final int rank;
    private final VerbsSettings settings;
    private final Verbs device;
    private final Verbs.ProtectionDomain pd;
    private final Verbs.CompletionQueue sendCq;
    private final Verbs.CompletionQueue recvCq;
    private VerbsEndpoint[] endpoints = new VerbsEndpoint[0];
    /** Endpoints whose connection is being made or torn down: those the connection manager moves on. */
    private final Set<VerbsEndpoint> changing = new LinkedHashSet<>();
    private final Map<Integer, VerbsEndpoint> byQpn = new HashMap<>();
    /** Counts uses: each endpoint's {@code lastUsed} is its value at the latest, which orders LRU. */
    private long clock;
    private int open;

    private long connectionsMade;
    private long reconnections;
    private long tearDowns;
    private long peakConnections;

    ConnectionTable(int rank, VerbsSettings settings, Verbs device, Verbs.ProtectionDomain pd,
                    Verbs.CompletionQueue sendCq, Verbs.CompletionQueue recvCq) {
        this.rank = rank;
        this.settings = settings;
        this.device = device;
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** The job's endpoints, by rank (null for this rank and for peers verbs cannot reach). */
    void setEndpoints(VerbsEndpoint[] endpoints) {
        this.endpoints = endpoints;
    }

    VerbsEndpoint endpoint(int rank) {
        return endpoints[rank];
    }

    /** Every endpoint of the job (those of the peers verbs reaches). */
    List<VerbsEndpoint> peers() {
        List<VerbsEndpoint> peers = new java.util.ArrayList<>();
        for (VerbsEndpoint endpoint : endpoints) {
            if (endpoint != null) {
                peers.add(endpoint);
            }
        }
        return peers;
    }

    /** True if {@code rank} is one of the job's. */
    boolean hasRank(int rank) {
        return rank >= 0 && rank < endpoints.length;
    }

    /** The endpoint of {@code rank}, or null for a rank outside the job, this rank or one verbs cannot reach. */
    VerbsEndpoint endpointOrNull(int rank) {
        return hasRank(rank) ? endpoints[rank] : null;
    }

    /** The endpoint whose queue pair has this number, or null (none, or torn down). */
    VerbsEndpoint byQpn(int qpn) {
        return byQpn.get(qpn);
    }

    /** Marks a use of the endpoint's connection: LRU tears down the connection used least recently. */
    void used(VerbsEndpoint endpoint) {
        endpoint.lastUsed = ++clock;
    }

    int open() {
        return open;
    }

    long connectionsMade() {
        return connectionsMade;
    }

    long reconnections() {
        return reconnections;
    }

    long tearDowns() {
        return tearDowns;
    }

    long peakConnections() {
        return peakConnections;
    }

    /** True while some endpoint's work requests are posted and not completed. */
    boolean anyOutstanding() {
        for (VerbsEndpoint endpoint : endpoints) {
            if (endpoint != null && endpoint.outstanding > 0) {
                return true;
            }
        }
        return false;
    }

    /** The endpoints whose connection is being made or torn down, a copy: advancing one changes the set. */
    List<VerbsEndpoint> changing() {
        return List.copyOf(changing);
    }

    boolean anyChanging() {
        return !changing.isEmpty();
    }

    // ---- queue pairs ---------------------------------------------------------------------------

    /** A QP in INIT with its receive buffers posted: the memory a connection costs. */
    void openQueuePair(VerbsEndpoint endpoint) {
        Verbs.QueuePair qp = pd.createQp(Ibv.QpType.RC, sendCq, recvCq, MAX_SEND_WR, settings.receiveBuffers());
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_WRITE);
        qp.modify(init, init.mask());
        endpoint.qp = qp;
        endpoint.psn = (int) (System.nanoTime() & 0xFFFFFF);
        endpoint.receiveArena = Arena.ofShared();
        endpoint.receiveSlab = endpoint.receiveArena.allocate((long) settings.receiveBuffers() * settings.maxSendSize(), 64);
        endpoint.receiveRegion = pd.register(endpoint.receiveSlab, Ibv.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < settings.receiveBuffers(); i++) {
            postReceive(endpoint, i);
        }
        endpoint.sent = 0;
        endpoint.received = 0;
        endpoint.reposted = 0;
        endpoint.repostedTold = 0;
        byQpn.put(qp.qpNum(), endpoint);
        open++;
        peakConnections = Math.max(peakConnections, open);
    }

    /** Posts receive buffer {@code buffer} of the endpoint's connection (again, once its fragment was taken). */
    void postReceive(VerbsEndpoint endpoint, int buffer) {
        long at = endpoint.receiveRegion.address() + (long) buffer * settings.maxSendSize();
        endpoint.qp.postRecv(new RecvRequest(buffer, List.of(endpoint.receiveRegion.sge(at, settings.maxSendSize()))));
    }

    void toReadyToSend(VerbsEndpoint endpoint, int peerQpn, int peerPsn) {
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).destLid(endpoint.lid).pathMtu(device.activeMtu())
                .destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(12);
        endpoint.qp.modify(rtr, rtr.mask());
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(endpoint.psn).timeout(14).retryCount(7)
                .rnrRetry(7).maxRdAtomic(1);
        endpoint.qp.modify(rts, rts.mask());
    }

    void closeQueuePair(VerbsEndpoint endpoint, boolean tornDown) {
        byQpn.remove(endpoint.qp.qpNum());
        endpoint.qp.destroy();
        pd.deregister(endpoint.receiveRegion);
        endpoint.receiveArena.close();
        endpoint.qp = null;
        endpoint.receiveRegion = null;
        endpoint.receiveSlab = null;
        endpoint.receiveArena = null;
        open--;
        if (tornDown) {
            tearDowns++;
            endpoint.tearDowns++;
        }
        change(endpoint, State.IDLE);
    }

    /** Finalizing: destroys every queue pair still there and frees its receive buffers. */
    void destroyAll() {
        for (VerbsEndpoint endpoint : endpoints) {
            if (endpoint != null && endpoint.qp != null) {
                endpoint.qp.destroy();
                endpoint.receiveArena.close();
            }
        }
    }

    // ---- states --------------------------------------------------------------------------------

    void established(VerbsEndpoint endpoint) {
        change(endpoint, State.CONNECTED);
        connectionsMade++;
        if (endpoint.everConnected) {
            reconnections++;
        }
        endpoint.everConnected = true;
        endpoint.connectedAt = System.nanoTime();
        used(endpoint);
    }

    void startClosing(VerbsEndpoint endpoint) {
        change(endpoint, State.CLOSING);
        endpoint.breakSent = false;
        endpoint.breakAcked = false;
        endpoint.peerBreakSeen = false;
    }

    void change(VerbsEndpoint endpoint, State state) {
        if (settings.verbose()) {
            System.err.println("btl/verbs: rank " + rank + ": connection " + endpoint.generation + " to rank "
                    + endpoint.rank + ": " + endpoint.state + " -> " + state + " (" + open + " open)");
        }
        endpoint.state = state;
        if (state == State.CONNECTED || state == State.IDLE) {
            changing.remove(endpoint);
        } else {
            changing.add(endpoint);
        }
    }

    // ---- the limit (ACTS) ----------------------------------------------------------------------

    /** True when one more connection would pass {@code max_conn}. */
    boolean atLimit() {
        return settings.maxConnections() > 0 && open >= settings.maxConnections();
    }

    /** True when a request was accepted above {@code max_conn}: a connection is to be torn down as soon as one can be. */
    boolean overLimit() {
        return settings.maxConnections() > 0 && open > settings.maxConnections();
    }

    /**
     * Chooses a victim other than {@code keep} and starts its tear-down, unless one is already
     * under way. Returns true if a tear-down is under way now, false if no connection can be torn
     * down (none is up and used).
     */
    boolean evict(VerbsEndpoint keep) {
        VerbsEndpoint victim = null;
        long now = System.nanoTime();
        for (VerbsEndpoint candidate : endpoints) {
            if (candidate == null) {
                continue;
            }
            if (candidate.state == State.CLOSING) {
                return true;
            }
            boolean used = candidate.sent + candidate.received > 0
                    || now - candidate.connectedAt > NEW_CONNECTION_GRACE_NANOS;
            if (candidate != keep && candidate.state == State.CONNECTED && used
                    && (victim == null || settings.policy().order.compare(candidate, victim) < 0)) {
                victim = candidate;
            }
        }
        if (victim == null) {
            return false;
        }
        startClosing(victim);
        return true;
    }

    /** Every endpoint's connection state, one per line: what a hang report shows. */
    String describe() {
        StringBuilder out = new StringBuilder("rank " + rank + ": " + open + " open");
        for (VerbsEndpoint endpoint : endpoints) {
            if (endpoint != null && endpoint.state != State.IDLE) {
                out.append("\n  ").append(endpoint);
            }
        }
        return out.toString();
    }
}
