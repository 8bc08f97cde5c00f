package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.VerbsEndpoint.State;
import org.jmca.mca.McaException;

/**
 * btl/verbs's connection manager: makes and tears down the RC connection to a peer by datagrams
 * on a UD queue pair of its own, as btl/openib's {@code connect/} files do for Open MPI. It owns
 * the protocol; the {@link ConnectionTable} owns the connections it changes.
 *
 * <p>Every message names the connection (its number): REQ (QP number, PSN) → REP (the same) →
 * RTU; each side of a REQ that waits resends it until answered, so a lost datagram costs a retry,
 * not the job. When both sides start at once, the lower rank's request wins. Tear-down: BREAK
 * (fragments sent on the connection) after the sender's work has completed, BREAK_ACK in answer;
 * a side destroys its QP when both BREAKs are acknowledged and it has received every fragment the
 * peer's BREAK counts. Nothing is lost or reordered: no fragment is sent once a connection is
 * closing, and the next connection to the peer starts only after the old one is gone on this side.
 *
 * <p>Finalize: BYE (the connection it names) to every peer with a connection, once this side's
 * own work has completed, answered by BYE_ACK once the peer has taken what came on the
 * connection and put its queue pair in ERR: only then does this side destroy its queue pairs, so
 * no peer's send, credit return or RC retry meets a queue pair that is gone. The wait is bounded
 * (a peer whose port is down is not waited for, and one that does not answer in time is left);
 * a peer that said BYE is not an error when work posted to it fails. A request that comes to a
 * finalizing process is answered by BYE; two processes finalizing at once each take the other's
 * BYE as the answer to their own.
 *
 * <pre>
 * Message (32 bytes):
 *  0 | type                 (int) |  REQ, REP, RTU, BREAK, BREAK_ACK, BYE, BYE_ACK
 *  4 | sender's rank        (int) |
 *  8 | connection number    (int) |
 * 12 | QP number            (int) |  REQ, REP
 * 16 | PSN                  (int) |  REQ, REP
 * 24 | fragments sent      (long) |  BREAK
 * </pre>
 *
 * <p>Threads: the thread that owns progress, as the module's.
 */
final class ConnectionManager {
    /** The Q_Key of the connection manager's datagrams. */
    static final int QKEY = 0x4a4d4341;
    private static final int CM_REQ = 1;
    private static final int CM_REP = 2;
    private static final int CM_RTU = 3;
    private static final int CM_BREAK = 4;
    private static final int CM_BREAK_ACK = 5;
    private static final int CM_BYE = 6;
    private static final int CM_BYE_ACK = 7;
    private static final String[] CM_NAMES = {"?", "REQ", "REP", "RTU", "BREAK", "BREAK_ACK", "BYE", "BYE_ACK"};
    private static final int CM_MESSAGE = 32;
    private static final int CM_RECEIVES = 128;
    private static final int CM_SEND_SLOTS = 64;
    private static final int CM_BUFFER = Ibv.GRH_BYTES + CM_MESSAGE;

    /**
     * What letting go of a connection to a peer that is gone needs of the module's sending side.
     * Threads: the thread that owns progress.
     */
    interface Sending {
        /** Takes the completions of the send queue; returns how many. */
        int pollSends();

        /** Forgets the fragments waiting for the endpoint's connection. */
        void dropPending(VerbsEndpoint endpoint);
    }

    private final int rank;
    private final VerbsSettings settings;
    private final Verbs device;
    private final ConnectionTable connections;
    private final Sending sending;
    private final Verbs.CompletionQueue cq;
    private final Verbs.QueuePair qp;
    private final MemoryRegion receives;
    private final MemoryRegion sends;
    private int sendNext;
    private final WorkCompletion[] completions = new WorkCompletion[32];
    private long resends;
    /** This process finalizes: it makes no connection and answers only BYE, BYE_ACK, REQ and BREAK. */
    private boolean finalizing;
    /** Peers whose BYE came, for the module to let go of (their connection's arrivals taken first), then answer. */
    private final List<VerbsEndpoint> goodbyes = new ArrayList<>();

    /** Makes the UD queue pair, brought to RTS, with its receive buffers posted (in {@code arena}). */
    ConnectionManager(int rank, VerbsSettings settings, Verbs device, Verbs.ProtectionDomain pd, Arena arena,
                      ConnectionTable connections, Sending sending) {
        this.rank = rank;
        this.settings = settings;
        this.device = device;
        this.connections = connections;
        this.sending = sending;
        this.cq = device.createCq(CM_RECEIVES + 4 * CM_SEND_SLOTS);
        this.qp = pd.createQp(Ibv.QpType.UD, cq, cq, CM_SEND_SLOTS, CM_RECEIVES);
        VerbsUdPort.readyToSend(qp, QKEY);
        this.receives = pd.register(arena.allocate((long) CM_RECEIVES * CM_BUFFER, 64), Ibv.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < CM_RECEIVES; i++) {
            postReceive(i);
        }
        this.sends = pd.register(arena.allocate((long) CM_SEND_SLOTS * CM_MESSAGE, 64), 0);
    }

    /** The UD queue pair's number, which peers send to. */
    int qpNum() {
        return qp.qpNum();
    }

    /** Datagrams sent again because their answer was late. */
    long resends() {
        return resends;
    }

    void destroy() {
        qp.destroy();
    }

    /** Starts a connection to the peer, or, at the limit, the tear-down of another one to make room. */
    void connect(VerbsEndpoint endpoint) {
        if (connections.atLimit()) {
            connections.evict(endpoint);
            return;
        }
        endpoint.generation++;
        connections.openQueuePair(endpoint);
        connections.change(endpoint, State.CONNECTING);
        send(endpoint, CM_REQ, endpoint.qp.qpNum(), endpoint.psn, 0);
    }

    // ---- moving connections on -----------------------------------------------------------------

    /** Resends what waits for an answer, moves tear-downs on. */
    int advance() {
        if (!connections.anyChanging()) {
            return 0;
        }
        int events = 0;
        long now = System.nanoTime();
        for (VerbsEndpoint endpoint : connections.changing()) {
            boolean late = now - endpoint.cmSentAt > settings.cmRetryNanos();
            if (late && !device.portActive(endpoint.lid)) {
                abandon(endpoint);
                continue;
            }
            switch (endpoint.state) {
                case CONNECTING -> {
                    if (late) {
                        resends++;
                        send(endpoint, CM_REQ, endpoint.qp.qpNum(), endpoint.psn, 0);
                    }
                }
                case ACCEPTED -> {
                    if (late) {
                        resends++;
                        send(endpoint, CM_REP, endpoint.qp.qpNum(), endpoint.psn, 0);
                    }
                }
                case CLOSING -> events += advanceClosing(endpoint, late);
                default -> {
                }
            }
        }
        return events;
    }

    private int advanceClosing(VerbsEndpoint endpoint, boolean late) {
        if (!endpoint.breakSent) {
            if (endpoint.outstanding > 0) {
                return 0;
            }
            endpoint.breakSent = true;
            send(endpoint, CM_BREAK, 0, 0, endpoint.sent);
            return 1;
        }
        if (!endpoint.breakAcked && late) {
            resends++;
            send(endpoint, CM_BREAK, 0, 0, endpoint.sent);
        }
        if (endpoint.breakAcked && endpoint.peerBreakSeen && endpoint.received >= endpoint.peerSent) {
            connections.closeQueuePair(endpoint, true);
            return 1;
        }
        return 0;
    }

    /**
     * The peer's port went down (it finalized or died) while a connection to it was being made or
     * torn down: nothing more will come from it and nothing can reach it, so this side lets go.
     */
    private void abandon(VerbsEndpoint endpoint) {
        if (endpoint.qp != null) {
            // ERR flushes the sends still posted: their completions give the send buffers back.
            QpAttributes error = new QpAttributes().state(QpState.ERR);
            endpoint.qp.modify(error, error.mask());
            while (endpoint.outstanding > 0 && sending.pollSends() > 0) {
                // taking the flushed completions
            }
            endpoint.outstanding = 0;
            connections.closeQueuePair(endpoint, false);
        }
        sending.dropPending(endpoint);
        connections.change(endpoint, State.IDLE);
    }

    // ---- goodbyes (finalize) -------------------------------------------------------------------

    /** True when a peer's BYE waits for the module to let go of its connection. */
    boolean hasGoodbyes() {
        return !goodbyes.isEmpty();
    }

    /** The peers whose BYE came since the last call; the module lets go of each, then {@link #answerGoodbye}s it. */
    List<VerbsEndpoint> takeGoodbyes() {
        List<VerbsEndpoint> taken = List.copyOf(goodbyes);
        goodbyes.clear();
        return taken;
    }

    /** BYE_ACK: this side has taken what the peer sent and will post nothing more to it. */
    void answerGoodbye(VerbsEndpoint endpoint) {
        send(endpoint, CM_BYE_ACK, 0, 0, 0);
    }

    /**
     * Finalize: from now on no connection is made, and every peer with a connection (in whatever
     * state) is told BYE. {@link #awaitingGoodbyes} says when all have answered.
     */
    void sayGoodbye() {
        finalizing = true;
        for (VerbsEndpoint endpoint : connections.peers()) {
            if (endpoint.state != State.IDLE && !endpoint.peerFinalized) {
                endpoint.byeSent = true;
                endpoint.byeAcked = false;
                send(endpoint, CM_BYE, 0, 0, 0);
            }
        }
    }

    /**
     * True while a peer told BYE has not answered: its BYE is sent again when late, and a peer
     * whose port is down is no longer waited for (it took nothing from us, and nothing of it
     * can reach a queue pair of ours).
     */
    boolean awaitingGoodbyes() {
        boolean waiting = false;
        long now = System.nanoTime();
        for (VerbsEndpoint endpoint : connections.peers()) {
            if (!endpoint.byeSent || endpoint.byeAcked || endpoint.peerFinalized) {
                continue;
            }
            if (now - endpoint.cmSentAt > settings.cmRetryNanos()) {
                if (!device.portActive(endpoint.lid)) {
                    endpoint.byeAcked = true;
                    continue;
                }
                resends++;
                send(endpoint, CM_BYE, 0, 0, 0);
            }
            waiting = true;
        }
        return waiting;
    }

    // ---- datagrams -----------------------------------------------------------------------------

    private void postReceive(int slot) {
        long at = receives.address() + (long) slot * CM_BUFFER;
        qp.postRecv(new RecvRequest(slot, List.of(receives.sge(at, CM_BUFFER))));
    }

    /** Message: type, sender's rank, connection number, QP number, PSN (ints), then a count (long). */
    private void send(VerbsEndpoint endpoint, int type, int qpn, int psn, long count) {
        send(endpoint, type, endpoint.generation, qpn, psn, count);
    }

    private void send(VerbsEndpoint endpoint, int type, int generation, int qpn, int psn, long count) {
        long at = sends.address() + (long) (sendNext++ % CM_SEND_SLOTS) * CM_MESSAGE;
        MemorySegment message = MemorySegment.ofAddress(at).reinterpret(CM_MESSAGE);
        message.set(ValueLayout.JAVA_INT, 0, type);
        message.set(ValueLayout.JAVA_INT, 4, rank);
        message.set(ValueLayout.JAVA_INT, 8, generation);
        message.set(ValueLayout.JAVA_INT, 12, qpn);
        message.set(ValueLayout.JAVA_INT, 16, psn);
        message.set(ValueLayout.JAVA_LONG, 24, count);
        qp.postSend(SendRequest.datagram(type, List.of(sends.sge(at, CM_MESSAGE)),
                new SendRequest.Destination(endpoint.lid, endpoint.cmQpn, QKEY)));
        endpoint.cmSentAt = System.nanoTime();
    }

    /** Takes every completion of the connection manager's queue: a burst of resends must not overrun it. */
    int poll() {
        int total = 0;
        int n;
        do {
            n = pollOnce();
            total += n;
        } while (n == completions.length);
        return total;
    }

    /**
     * Takes one batch of completions. A datagram no rank sends is an error naming where it came
     * from, thrown once the whole batch is taken (the others along with it, as suppressed): it
     * costs neither its receive buffer nor the messages behind it.
     */
    private int pollOnce() {
        int n = cq.poll(completions, completions.length);
        McaException refused = null;
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = completions[i];
            if (wc.opcode() != Ibv.WcOpcode.RECV) {
                continue;
            }
            int slot = (int) wc.wrId();
            try {
                if (wc.ok()) {
                    onDatagram(slot, wc);
                }
            } catch (McaException e) {
                if (refused == null) {
                    refused = e;
                } else {
                    refused.addSuppressed(e);
                }
            }
            postReceive(slot);
        }
        if (refused != null) {
            throw refused;
        }
        return n;
    }

    private void onDatagram(int slot, WorkCompletion wc) {
        if (wc.byteLength() < CM_BUFFER) { // the rest of the slot holds an older message
            throw new McaException("btl/verbs: rank " + rank + " got a connection-manager datagram of "
                    + (wc.byteLength() - Ibv.GRH_BYTES) + " bytes from LID " + wc.slid() + " (a message is "
                    + CM_MESSAGE + ")");
        }
        MemorySegment message = MemorySegment.ofAddress(receives.address() + (long) slot * CM_BUFFER
                + Ibv.GRH_BYTES).reinterpret(CM_MESSAGE);
        onMessage(message.get(ValueLayout.JAVA_INT, 0), sender(message.get(ValueLayout.JAVA_INT, 4)),
                message.get(ValueLayout.JAVA_INT, 8), message.get(ValueLayout.JAVA_INT, 12),
                message.get(ValueLayout.JAVA_INT, 16), message.get(ValueLayout.JAVA_LONG, 24));
    }

    /** The endpoint of the rank a datagram names as its sender: one of the job's peers that verbs reaches. */
    private VerbsEndpoint sender(int senderRank) {
        VerbsEndpoint from = connections.endpointOrNull(senderRank);
        if (from == null) {
            throw new McaException("btl/verbs: rank " + rank + " got a connection-manager message from rank "
                    + senderRank + ", which is " + (senderRank == rank ? "itself"
                    : connections.hasRank(senderRank) ? "not reached by verbs" : "not a rank of the job"));
        }
        return from;
    }

    private void onMessage(int type, VerbsEndpoint from, int generation, int qpn, int psn, long count) {
        if (settings.verbose()) {
            System.err.println("btl/verbs: rank " + rank + ": "
                    + (type >= 0 && type < CM_NAMES.length ? CM_NAMES[type] : "message " + type) + " for connection " + generation
                    + " from rank " + from.rank + " (ours: " + from.generation + ", " + from.state + ")");
        }
        boolean current = generation == from.generation;
        if (finalizing && type != CM_BYE && type != CM_BYE_ACK) {
            if (type == CM_REQ) {
                send(from, CM_BYE, generation, 0, 0, 0); // no connection is made now: the peer lets go of its attempt
            } else if (type == CM_BREAK) {
                send(from, CM_BREAK_ACK, generation, 0, 0, 0);
            } else if (type < CM_REQ || type > CM_BYE_ACK) {
                throw new McaException("btl/verbs: rank " + rank + " got connection-manager message " + type
                        + " from rank " + from.rank);
            }
            return;
        }
        switch (type) {
            case CM_REQ -> {
                // At the limit, a request waits (its sender sends it again) while a connection is torn
                // down to make room; when none can be, it is accepted above the limit rather than risk
                // a ring of full processes each waiting for the next.
                if (from.state == State.IDLE && generation == from.generation + 1
                        && !(connections.atLimit() && connections.evict(from))) {
                    from.generation = generation;
                    connections.openQueuePair(from);
                    accept(from, qpn, psn);
                } else if (from.state == State.CONNECTING && current && rank > from.rank) {
                    accept(from, qpn, psn);
                } else if (from.state == State.ACCEPTED && current) {
                    send(from, CM_REP, from.qp.qpNum(), from.psn, 0);
                }
            }
            case CM_REP -> {
                if (from.state == State.CONNECTING && current) {
                    connections.toReadyToSend(from, qpn, psn);
                    connections.established(from);
                    send(from, CM_RTU, 0, 0, 0);
                } else if (from.state == State.CONNECTED && current) {
                    send(from, CM_RTU, 0, 0, 0);
                }
            }
            case CM_RTU -> {
                if (from.state == State.ACCEPTED && current) {
                    connections.established(from);
                }
            }
            case CM_BREAK -> {
                if (current && (from.state == State.CONNECTED || from.state == State.ACCEPTED)) {
                    connections.startClosing(from);
                }
                if (current && from.state == State.CLOSING) {
                    from.peerBreakSeen = true;
                    from.peerSent = count;
                }
                send(from, CM_BREAK_ACK, generation, 0, 0, 0); // the connection the BREAK named, maybe an old one
            }
            case CM_BREAK_ACK -> {
                if (current && from.state == State.CLOSING && from.breakSent) {
                    from.breakAcked = true;
                }
            }
            case CM_BYE -> {
                // The peer finalizes. Its fragments on the connection came before this (in order on
                // the same path), so the module takes them, then puts the queue pair in ERR and
                // answers; an older connection's BYE (a late or duplicate one) is only answered.
                if (current && !from.peerFinalized) {
                    from.peerFinalized = true;
                    goodbyes.add(from);
                } else if (!(current && goodbyes.contains(from))) {
                    send(from, CM_BYE_ACK, generation, 0, 0, 0);
                }
            }
            case CM_BYE_ACK -> {
                if (current && from.byeSent) {
                    from.byeAcked = true;
                }
            }
            default -> throw new McaException("btl/verbs: rank " + rank + " got connection-manager message " + type
                    + " from rank " + from.rank);
        }
    }

    private void accept(VerbsEndpoint endpoint, int peerQpn, int peerPsn) {
        connections.toReadyToSend(endpoint, peerQpn, peerPsn);
        connections.change(endpoint, State.ACCEPTED);
        send(endpoint, CM_REP, endpoint.qp.qpNum(), endpoint.psn, 0);
    }
}
