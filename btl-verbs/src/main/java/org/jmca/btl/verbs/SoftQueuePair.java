package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.Ibv.QpType;
import org.jmca.btl.verbs.Ibv.WcOpcode;
import org.jmca.btl.verbs.Ibv.WcStatus;

/** A queue pair of the {@link SoftVerbs} device: requester and responder of RC, or a UD endpoint. */
final class SoftQueuePair implements Verbs.QueuePair {
    private static final int RNR_INFINITE = 7;

    private final SoftVerbs device;
    private final Verbs.ProtectionDomain pd;
    private final int pdId;
    private final QpType type;
    private final int qpn;
    private final SoftVerbs.SoftCq sendCq;
    private final SoftVerbs.SoftCq recvCq;
    private final int maxSendWr;
    private final int maxRecvWr;
    private QpState state = QpState.RESET;

    private int accessFlags;
    private int qkey;
    private int destLid;
    private int destQpn;
    private int pathMtu;
    private int timeout;
    private int retryCount;
    private int rnrRetry;
    private int minRnrTimer;

    /** Requester: work in post order; the first {@code transmitted} have gone on the wire. */
    private final List<Pending> outstanding = new ArrayList<>();
    private int transmitted;
    private int nextPsn;
    private long resumeAt;
    private int retriesLeft;
    /** A packet of this QP went out while the link was down: it will never be acknowledged. */
    private boolean lost;

    /** Responder: the next PSN expected, and the highest one to acknowledge (-1: none). */
    private final ArrayDeque<RecvRequest> receives = new ArrayDeque<>();
    private int expectedPsn;
    private int ackPsn = -1;
    private MemorySegment grh;
    /** The MLIDs of the multicast groups this UD queue pair is attached to. */
    private final List<Integer> groups = new ArrayList<>();

    /** One work request on the send queue. */
    private static final class Pending {
        final SendRequest request;
        final int psn;
        int rnrLeft;
        boolean done;
        WcStatus status = WcStatus.SUCCESS;
        long sentAt;
        /** Over the wire to another host: bytes of a WRITE queued, the request queued, the responder answered. */
        final long[] wireProgress = new long[1];
        boolean queued;
        boolean answered;

        Pending(SendRequest request, int psn, int rnrLeft) {
            this.request = request;
            this.psn = psn;
            this.rnrLeft = rnrLeft;
        }
    }

    SoftQueuePair(SoftVerbs device, Verbs.ProtectionDomain pd, int pdId, QpType type, int qpn, SoftVerbs.SoftCq sendCq,
                  SoftVerbs.SoftCq recvCq, int maxSendWr, int maxRecvWr) {
        this.device = device;
        this.pd = pd;
        this.pdId = pdId;
        this.type = type;
        this.qpn = qpn;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.maxSendWr = maxSendWr;
        this.maxRecvWr = maxRecvWr;
    }

    @Override
    public int qpNum() {
        return qpn;
    }

    @Override
    public QpType type() {
        return type;
    }

    @Override
    public QpState state() {
        return state;
    }

    // ---- ibv_modify_qp ---------------------------------------------------------------------

    @Override
    public void modify(QpAttributes attributes, int mask) {
        QpState target = (mask & Ibv.QP_STATE) != 0 ? attributes.state : state;
        int[] requiredAndOptional = masks(state, target);
        if (requiredAndOptional == null) {
            throw new VerbsException("ibv_modify_qp(" + this + "): EINVAL: no transition from " + state + " to " + target);
        }
        int missing = requiredAndOptional[0] & ~mask;
        int extra = mask & ~(requiredAndOptional[0] | requiredAndOptional[1]);
        if (missing != 0 || extra != 0) {
            throw new VerbsException("ibv_modify_qp(" + this + ", " + state + " -> " + target + "): EINVAL: the attribute mask"
                    + (missing != 0 ? " lacks " + maskNames(missing) : "")
                    + (missing != 0 && extra != 0 ? " and" : "")
                    + (extra != 0 ? " may not hold " + maskNames(extra) : ""));
        }
        if ((mask & Ibv.QP_PORT) != 0 && attributes.port != 1) {
            throw new VerbsException("ibv_modify_qp(" + this + "): EINVAL: port " + attributes.port + " (the device has port 1)");
        }
        if ((mask & Ibv.QP_PATH_MTU) != 0) {
            Ibv.mtuBytes(attributes.pathMtu);
            if (attributes.pathMtu > device.activeMtu()) {
                throw new VerbsException("ibv_modify_qp(" + this + "): EINVAL: path MTU " + Ibv.mtuBytes(attributes.pathMtu)
                        + " is above the port's " + Ibv.mtuBytes(device.activeMtu()));
            }
            pathMtu = attributes.pathMtu;
        }
        if ((mask & Ibv.QP_ACCESS_FLAGS) != 0) {
            accessFlags = attributes.accessFlags;
        }
        if ((mask & Ibv.QP_QKEY) != 0) {
            qkey = attributes.qkey;
        }
        if ((mask & Ibv.QP_AV) != 0) {
            destLid = attributes.destLid;
        }
        if ((mask & Ibv.QP_DEST_QPN) != 0) {
            destQpn = attributes.destQpn;
        }
        if ((mask & Ibv.QP_RQ_PSN) != 0) {
            expectedPsn = attributes.rqPsn & 0xFFFFFF;
        }
        if ((mask & Ibv.QP_SQ_PSN) != 0) {
            nextPsn = attributes.sqPsn & 0xFFFFFF;
        }
        if ((mask & Ibv.QP_MIN_RNR_TIMER) != 0) {
            minRnrTimer = attributes.minRnrTimer;
            Ibv.rnrTimerNanos(minRnrTimer);
        }
        if ((mask & Ibv.QP_TIMEOUT) != 0) {
            timeout = attributes.timeout;
            Ibv.ackTimeoutNanos(timeout);
        }
        if ((mask & Ibv.QP_RETRY_CNT) != 0) {
            retryCount = check("retry_cnt", attributes.retryCount, 7);
            retriesLeft = retryCount;
        }
        if ((mask & Ibv.QP_RNR_RETRY) != 0) {
            rnrRetry = check("rnr_retry", attributes.rnrRetry, 7);
        }
        switch (target) {
            case RESET -> {
                outstanding.clear();
                receives.clear();
                transmitted = 0;
                ackPsn = -1;
            }
            case ERR -> {
                state = QpState.ERR;
                flush();
            }
            default -> {
            }
        }
        state = target;
    }

    private int check(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new VerbsException("ibv_modify_qp(" + this + "): EINVAL: " + name + " " + value + " is outside 0.." + max);
        }
        return value;
    }

    /** The required and the optional attributes of a transition, after ibv_modify_qp(3); null if not allowed. */
    private int[] masks(QpState from, QpState to) {
        int state = Ibv.QP_STATE;
        if (to == QpState.RESET || to == QpState.ERR) {
            return new int[] {state, Ibv.QP_CUR_STATE};
        }
        boolean rc = type == QpType.RC;
        return switch (from) {
            case RESET -> to != QpState.INIT ? null : rc
                    ? new int[] {state | Ibv.QP_PKEY_INDEX | Ibv.QP_PORT | Ibv.QP_ACCESS_FLAGS, 0}
                    : new int[] {state | Ibv.QP_PKEY_INDEX | Ibv.QP_PORT | Ibv.QP_QKEY, 0};
            case INIT -> switch (to) {
                case INIT -> rc ? new int[] {0, state | Ibv.QP_PKEY_INDEX | Ibv.QP_PORT | Ibv.QP_ACCESS_FLAGS}
                        : new int[] {0, state | Ibv.QP_PKEY_INDEX | Ibv.QP_PORT | Ibv.QP_QKEY};
                case RTR -> rc
                        ? new int[] {state | Ibv.QP_AV | Ibv.QP_PATH_MTU | Ibv.QP_DEST_QPN | Ibv.QP_RQ_PSN
                                | Ibv.QP_MAX_DEST_RD_ATOMIC | Ibv.QP_MIN_RNR_TIMER,
                                Ibv.QP_ALT_PATH | Ibv.QP_ACCESS_FLAGS | Ibv.QP_PKEY_INDEX}
                        : new int[] {state, Ibv.QP_PKEY_INDEX | Ibv.QP_QKEY};
                default -> null;
            };
            case RTR -> to != QpState.RTS ? null : rc
                    ? new int[] {state | Ibv.QP_SQ_PSN | Ibv.QP_TIMEOUT | Ibv.QP_RETRY_CNT | Ibv.QP_RNR_RETRY
                            | Ibv.QP_MAX_QP_RD_ATOMIC, Ibv.QP_CUR_STATE | Ibv.QP_ACCESS_FLAGS | Ibv.QP_MIN_RNR_TIMER
                            | Ibv.QP_ALT_PATH | Ibv.QP_PATH_MIG_STATE}
                    : new int[] {state | Ibv.QP_SQ_PSN, Ibv.QP_CUR_STATE | Ibv.QP_QKEY};
            case RTS -> to != QpState.RTS ? null : rc
                    ? new int[] {0, state | Ibv.QP_CUR_STATE | Ibv.QP_ACCESS_FLAGS | Ibv.QP_MIN_RNR_TIMER
                            | Ibv.QP_ALT_PATH | Ibv.QP_PATH_MIG_STATE}
                    : new int[] {0, state | Ibv.QP_CUR_STATE | Ibv.QP_QKEY};
            default -> null;
        };
    }

    private static final String[] MASK_NAMES = {"IBV_QP_STATE", "IBV_QP_CUR_STATE", "IBV_QP_EN_SQD_ASYNC_NOTIFY",
        "IBV_QP_ACCESS_FLAGS", "IBV_QP_PKEY_INDEX", "IBV_QP_PORT", "IBV_QP_QKEY", "IBV_QP_AV", "IBV_QP_PATH_MTU",
        "IBV_QP_TIMEOUT", "IBV_QP_RETRY_CNT", "IBV_QP_RNR_RETRY", "IBV_QP_RQ_PSN", "IBV_QP_MAX_QP_RD_ATOMIC",
        "IBV_QP_ALT_PATH", "IBV_QP_MIN_RNR_TIMER", "IBV_QP_SQ_PSN", "IBV_QP_MAX_DEST_RD_ATOMIC",
        "IBV_QP_PATH_MIG_STATE", "IBV_QP_CAP", "IBV_QP_DEST_QPN"};

    static String maskNames(int mask) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < MASK_NAMES.length; bit++) {
            if ((mask & 1 << bit) != 0) {
                names.add(MASK_NAMES[bit]);
            }
        }
        return String.join(", ", names);
    }

    /** Every outstanding send and posted receive completes with IBV_WC_WR_FLUSH_ERR. */
    private void flush() {
        for (Pending pending : outstanding) {
            sendCq.push(completion(pending.request, WcStatus.WR_FLUSH_ERR));
        }
        outstanding.clear();
        transmitted = 0;
        for (RecvRequest receive : receives) {
            recvCq.push(new WorkCompletion(receive.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, qpn, 0, false, 0, 0, 0,
                    false));
        }
        receives.clear();
    }

    private WorkCompletion completion(SendRequest request, WcStatus status) {
        WcOpcode opcode = switch (request.opcode()) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case RDMA_READ -> WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD -> WcOpcode.FETCH_ADD;
            default -> WcOpcode.SEND;
        };
        return new WorkCompletion(request.wrId(), status, opcode, qpn, (int) request.bytes(), false, 0, 0, 0, false);
    }

    private void fail(WcStatus status) {
        Pending head = outstanding.removeFirst();
        transmitted = Math.max(0, transmitted - 1);
        sendCq.push(completion(head.request, status));
        state = QpState.ERR;
        flush();
    }

    // ---- posting -----------------------------------------------------------------------------

    @Override
    public void postRecv(RecvRequest request) {
        if (state == QpState.RESET) {
            throw new VerbsException("ibv_post_recv(" + this + "): EINVAL: the QP is in RESET");
        }
        if (receives.size() >= maxRecvWr) {
            throw new VerbsException("ibv_post_recv(" + this + "): ENOMEM: " + maxRecvWr + " receives are posted already");
        }
        if (!device.checkLocal(request.sges(), pdId, Ibv.ACCESS_LOCAL_WRITE)) {
            throw new VerbsException("ibv_post_recv(" + this + "): EINVAL: a scatter element " + request.sges()
                    + " is not inside a region of this PD with local write access");
        }
        if (state == QpState.ERR) {
            recvCq.push(new WorkCompletion(request.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, qpn, 0, false, 0, 0, 0,
                    false));
            return;
        }
        receives.addLast(request);
    }

    @Override
    public void postSend(SendRequest request) {
        if (state == QpState.ERR) {
            sendCq.push(completion(request, WcStatus.WR_FLUSH_ERR));
            return;
        }
        if (state != QpState.RTS) {
            throw new VerbsException("ibv_post_send(" + this + "): EINVAL: the QP is in " + state + "; sends need RTS");
        }
        if (outstanding.size() >= maxSendWr) {
            throw new VerbsException("ibv_post_send(" + this + "): ENOMEM: " + maxSendWr + " sends are outstanding already");
        }
        if (type == QpType.UD) {
            postDatagram(request);
            return;
        }
        if (request.destination() != null) {
            throw new VerbsException("ibv_post_send(" + this + "): EINVAL: an RC request has no address handle");
        }
        boolean atomic = request.opcode() == Ibv.Opcode.ATOMIC_CMP_AND_SWP
                || request.opcode() == Ibv.Opcode.ATOMIC_FETCH_AND_ADD;
        if (atomic && (request.sges().size() != 1 || request.sges().getFirst().length() != 8)) {
            throw new VerbsException("ibv_post_send(" + this + "): EINVAL: an atomic needs one 8-byte scatter element");
        }
        boolean onWire = switch (request.opcode()) {
            case SEND, SEND_WITH_IMM, RDMA_WRITE_WITH_IMM -> true;
            default -> false;
        };
        Pending pending = new Pending(request, onWire ? nextPsn : -1, rnrRetry);
        if (onWire) {
            nextPsn = (nextPsn + 1) & 0xFFFFFF;
        }
        int access = request.opcode() == Ibv.Opcode.RDMA_READ || atomic ? Ibv.ACCESS_LOCAL_WRITE : 0;
        if (!device.checkLocal(request.sges(), pdId, access)) {
            pending.status = WcStatus.LOC_PROT_ERR;
            pending.done = true;
        } else if (request.bytes() > device.maxMessage() && onWire) {
            pending.status = WcStatus.LOC_LEN_ERR;
            pending.done = true;
        }
        outstanding.add(pending);
        device.requesting(this);
        requesterProgress();
    }

    private void postDatagram(SendRequest request) {
        SendRequest.Destination to = request.destination();
        if (to == null) {
            throw new VerbsException("ibv_post_send(" + this + "): EINVAL: a UD request needs an address handle");
        }
        WcStatus status = WcStatus.SUCCESS;
        if (!device.checkLocal(request.sges(), pdId, 0)) {
            status = WcStatus.LOC_PROT_ERR;
        } else if (request.bytes() > Ibv.mtuBytes(device.activeMtu())) {
            status = WcStatus.LOC_LEN_ERR;
        } else {
            byte tag = request.opcode() == Ibv.Opcode.SEND_WITH_IMM ? SoftVerbs.UD_SEND_IMM : SoftVerbs.UD_SEND;
            long header1 = (to.qkey() & 0xFFFFFFFFL) | (long) request.immData() << 32;
            MemorySegment payload = device.gather(request.sges(), request.bytes());
            if (MulticastGroup.isMulticast(to.lid())) {
                device.sendMulticast(to.lid(), tag, qpn, header1, payload);
            } else {
                device.sendDatagram(to.lid(), tag, (to.qpn() & 0xFFFFFFFFL) | (long) qpn << 32, header1, payload);
            }
        }
        sendCq.push(completion(request, status));
    }

    @Override
    public void attachMulticast(MulticastGroup group) {
        if (type != QpType.UD) {
            throw new VerbsException("ibv_attach_mcast(" + this + "): EINVAL: only UD queue pairs join multicast groups");
        }
        if (groups.contains(group.mlid())) {
            throw new VerbsException("ibv_attach_mcast(" + this + "): EINVAL: already attached to MLID 0x"
                    + Integer.toHexString(group.mlid()));
        }
        device.attach(group.mlid(), qpn);
        groups.add(group.mlid());
    }

    @Override
    public void detachMulticast(MulticastGroup group) {
        if (!groups.remove((Integer) group.mlid())) {
            throw new VerbsException("ibv_detach_mcast(" + this + "): EINVAL: not attached to MLID 0x"
                    + Integer.toHexString(group.mlid()));
        }
        device.detach(group.mlid(), qpn);
    }

    @Override
    public void destroy() {
        outstanding.clear();
        groups.forEach(mlid -> device.detach(mlid, qpn));
        groups.clear();
        receives.clear();
        state = QpState.RESET;
        device.destroyed(this, pd);
    }

    // ---- requester ---------------------------------------------------------------------------

    boolean requesting() {
        return state == QpState.RTS && !outstanding.isEmpty();
    }

    /** Transmits what may go, retries what was lost, completes what is done, in post order. */
    void requesterProgress() {
        if (state != QpState.RTS || outstanding.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        if (now >= resumeAt) {
            while (transmitted < outstanding.size()) {
                Pending pending = outstanding.get(transmitted);
                if (!pending.done && !execute(pending)) {
                    break;
                }
                pending.sentAt = now;
                transmitted++;
            }
        }
        Pending head = outstanding.getFirst();
        if (!head.done && transmitted > 0 && now - head.sentAt > Ibv.ackTimeoutNanos(timeout)) {
            if (!lost && device.peerUp(destLid)) {
                head.sentAt = now; // a slow responder, not a lost packet: look again after another timeout
                completeDone();
                return;
            }
            device.transportRetries++;
            if (retriesLeft-- <= 0) {
                fail(WcStatus.RETRY_EXC_ERR);
                return;
            }
            lost = false;
            transmitted = 0;
        }
        completeDone();
    }

    private void completeDone() {
        while (!outstanding.isEmpty() && outstanding.getFirst().done && state == QpState.RTS) {
            Pending head = outstanding.getFirst();
            if (head.status != WcStatus.SUCCESS) {
                fail(head.status);
                return;
            }
            outstanding.removeFirst();
            transmitted = Math.max(0, transmitted - 1);
            sendCq.push(completion(head.request, WcStatus.SUCCESS));
        }
    }

    /** Puts one request on the wire (or carries out its RDMA); false if the wire cannot take it now. */
    private boolean execute(Pending pending) {
        SendRequest request = pending.request;
        lost |= device.faults().linkDown();
        long header0 = (destQpn & 0xFFFFFFFFL) | (long) qpn << 32;
        long header1 = (pending.psn & 0xFFFFFFFFL) | (long) request.immData() << 32;
        return switch (request.opcode()) {
            case SEND -> device.transmit(destLid, SoftVerbs.RC_SEND, header0, header1,
                    device.gather(request.sges(), request.bytes()));
            case SEND_WITH_IMM -> device.transmit(destLid, SoftVerbs.RC_SEND_IMM, header0, header1,
                    device.gather(request.sges(), request.bytes()));
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> rdma(pending, header0, header1);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> atomic(pending);
        };
    }

    private boolean rdma(Pending pending, long header0, long header1) {
        if (device.isRemote(destLid)) {
            return remoteRequest(pending, header0, header1);
        }
        SendRequest request = pending.request;
        SoftPort responder = device.peerPort(destLid);
        if (device.faults().linkDown() || responder == null || !responder.open()) {
            return true;
        }
        boolean read = request.opcode() == Ibv.Opcode.RDMA_READ;
        int access = read ? Ibv.ACCESS_REMOTE_READ : Ibv.ACCESS_REMOTE_WRITE;
        if (!responder.allows(request.rkey(), request.remoteAddress(), request.bytes(), access)) {
            pending.status = WcStatus.REM_ACCESS_ERR;
            pending.done = true;
            return true;
        }
        long remote = request.remoteAddress();
        try {
            for (Sge sge : request.sges()) {
                MemorySegment local = SoftVerbs.ALL.asSlice(sge.address(), sge.length());
                if (read) {
                    device.crossMemory().read(responder.pid, remote, local);
                } else {
                    device.crossMemory().write(responder.pid, remote, local);
                }
                remote += sge.length();
            }
        } catch (IllegalStateException gone) {
            lost = true; // the responder's process is gone (ESRCH): the timeout will find it out
            return true;
        }
        if (request.opcode() == Ibv.Opcode.RDMA_WRITE_WITH_IMM) {
            return device.transmit(destLid, SoftVerbs.RC_WRITE_IMM, header0, header1, MemorySegment.NULL);
        }
        pending.done = true;
        return true;
    }

    /**
     * A remote atomic on 8 aligned bytes of the responder's memory, under the responder port's
     * lock; the old value lands in the local element. Executed once: a retransmission after an
     * RNR finds it done, as a responder's duplicate-request cache would.
     */
    private boolean atomic(Pending pending) {
        if (device.isRemote(destLid)) {
            return remoteRequest(pending, 0, 0);
        }
        SendRequest request = pending.request;
        SoftPort responder = device.peerPort(destLid);
        if (device.faults().linkDown() || responder == null || !responder.open()) {
            return true;
        }
        long remote = request.remoteAddress();
        if ((remote & 7) != 0) {
            pending.status = WcStatus.REM_INV_REQ_ERR;
        } else if (!responder.allows(request.rkey(), remote, 8, Ibv.ACCESS_REMOTE_ATOMIC)) {
            pending.status = WcStatus.REM_ACCESS_ERR;
        } else {
            MemorySegment word = Arena.ofAuto().allocate(8);
            try {
                long old = responder.atomically(() -> {
                    device.crossMemory().read(responder.pid, remote, word);
                    long value = word.get(ValueLayout.JAVA_LONG, 0);
                    long next = request.opcode() == Ibv.Opcode.ATOMIC_FETCH_AND_ADD ? value + request.compareAdd()
                            : value == request.compareAdd() ? request.swap() : value;
                    if (next != value) {
                        word.set(ValueLayout.JAVA_LONG, 0, next);
                        device.crossMemory().write(responder.pid, remote, word);
                    }
                    return value;
                });
                SoftVerbs.ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, request.sges().getFirst().address(), old);
            } catch (IllegalStateException gone) {
                lost = true;
                return true;
            }
        }
        pending.done = true;
        return true;
    }

    /**
     * RDMA or an atomic to a port on another host: the request goes over the wire and the
     * responder's agent answers. A WRITE with immediate data sends its immediate (a packet in
     * PSN order) only once the WRITE is answered, so a refused WRITE never reaches a receive.
     */
    private boolean remoteRequest(Pending pending, long header0, long header1) {
        SendRequest request = pending.request;
        if (device.faults().linkDown()) {
            lost = true;
            return true;
        }
        boolean withImm = request.opcode() == Ibv.Opcode.RDMA_WRITE_WITH_IMM;
        if (!pending.queued) {
            if (!device.wire().request(destLid, request, pending.wireProgress, status -> {
                pending.answered = true;
                pending.status = status;
                pending.done |= !withImm || status != WcStatus.SUCCESS;
            })) {
                return false;
            }
            pending.queued = true;
        }
        if (!withImm || pending.done) {
            return true;
        }
        return pending.answered && device.transmit(destLid, SoftVerbs.RC_WRITE_IMM, header0, header1, MemorySegment.NULL);
    }

    void onAck(int fromLid, int fromQp, int psn) {
        if (fromLid != destLid || fromQp != destQpn) {
            return;
        }
        for (Pending pending : outstanding) {
            if (pending.psn >= 0 && !after(pending.psn, psn)) {
                pending.done = true;
            }
        }
        retriesLeft = retryCount;
        completeDone();
    }

    void onRnrNak(int fromLid, int fromQp, int psn, int timerCode) {
        if (fromLid != destLid || fromQp != destQpn || state != QpState.RTS) {
            return;
        }
        for (int i = 0; i < outstanding.size(); i++) {
            Pending pending = outstanding.get(i);
            if (pending.psn < 0 || after(psn, pending.psn)) {
                if (pending.psn >= 0) {
                    pending.done = true;
                }
                continue;
            }
            if (pending.psn != psn) {
                return;
            }
            if (rnrRetry != RNR_INFINITE && pending.rnrLeft-- <= 0) {
                pending.status = WcStatus.RNR_RETRY_EXC_ERR;
                pending.done = true;
            } else {
                device.rnrRetries++;
                transmitted = Math.min(transmitted, i);
                resumeAt = System.nanoTime() + Ibv.rnrTimerNanos(timerCode);
            }
            completeDone();
            return;
        }
    }

    /** PSN order in 24-bit arithmetic: true if {@code a} comes after {@code b}. */
    private static boolean after(int a, int b) {
        return ((a - b) & 0xFFFFFF) != 0 && ((a - b) & 0xFFFFFF) < 0x800000;
    }

    // ---- responder ---------------------------------------------------------------------------

    void onRequest(int fromLid, int fromQp, byte tag, int psn, int imm, long at, int length) {
        if (type != QpType.RC || (state != QpState.RTR && state != QpState.RTS) || fromLid != destLid
                || fromQp != destQpn) {
            return;
        }
        if (psn != expectedPsn) {
            if (after(expectedPsn, psn)) {
                ackPsn = (expectedPsn - 1) & 0xFFFFFF;
                device.ackDue(this);
            }
            return;
        }
        RecvRequest receive = receives.peekFirst();
        if (receive == null) {
            device.transmit(destLid, SoftVerbs.RNR_NAK, (destQpn & 0xFFFFFFFFL) | (long) qpn << 32,
                    (psn & 0xFFFFFFFFL) | (long) minRnrTimer << 32, MemorySegment.NULL);
            return;
        }
        receives.removeFirst();
        boolean withImm = tag != SoftVerbs.RC_SEND;
        WcOpcode opcode = tag == SoftVerbs.RC_WRITE_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
        if (length > receive.bytes()) {
            recvCq.push(new WorkCompletion(receive.wrId(), WcStatus.LOC_LEN_ERR, opcode, qpn, length, withImm, imm, fromQp,
                    fromLid, false));
            state = QpState.ERR;
            flush();
            return;
        }
        SoftVerbs.scatter(at, length, receive.sges(), 0);
        recvCq.push(new WorkCompletion(receive.wrId(), WcStatus.SUCCESS, opcode, qpn, length, withImm, imm, fromQp,
                fromLid, false));
        expectedPsn = (expectedPsn + 1) & 0xFFFFFF;
        ackPsn = psn;
        device.ackDue(this);
    }

    /** Sends the ACK owed; false if the wire cannot take it now. */
    boolean sendAck() {
        if (ackPsn < 0) {
            return true;
        }
        if (!device.transmit(destLid, SoftVerbs.ACK, (destQpn & 0xFFFFFFFFL) | (long) qpn << 32, ackPsn,
                MemorySegment.NULL)) {
            return false;
        }
        ackPsn = -1;
        return true;
    }

    /** A datagram arrived: placed in the next receive, or dropped as UD drops it. */
    void onDatagram(int fromLid, int fromQp, boolean withImm, int packetQkey, int imm, long at, int length) {
        if (type != QpType.UD || (state != QpState.RTR && state != QpState.RTS) || packetQkey != qkey) {
            return;
        }
        RecvRequest receive = receives.pollFirst();
        if (receive == null) {
            return;
        }
        if (Ibv.GRH_BYTES + length > receive.bytes()) {
            recvCq.push(new WorkCompletion(receive.wrId(), WcStatus.LOC_LEN_ERR, WcOpcode.RECV, qpn, length, withImm, imm,
                    fromQp, fromLid, true));
            return;
        }
        // The GRH: here only its source GID's last bytes (the sender's LID) are meaningful.
        if (grh == null) {
            grh = Arena.ofAuto().allocate(Ibv.GRH_BYTES);
        }
        grh.set(ValueLayout.JAVA_INT_UNALIGNED, Ibv.GRH_BYTES - 4, fromLid);
        SoftVerbs.scatter(grh.address(), Ibv.GRH_BYTES, receive.sges(), 0);
        SoftVerbs.scatter(at, length, receive.sges(), Ibv.GRH_BYTES);
        recvCq.push(new WorkCompletion(receive.wrId(), WcStatus.SUCCESS, WcOpcode.RECV, qpn, Ibv.GRH_BYTES + length,
                withImm, imm, fromQp, fromLid, true));
    }

    @Override
    public String toString() {
        return type + " QP " + qpn;
    }
}
