package org.jmca.btl.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * rdma-core's device, an HCA's port 1, through {@code java.lang.foreign}: the exported verbs are
 * downcalls into {@code libibverbs.so.1}; the data path ({@code ibv_poll_cq},
 * {@code ibv_req_notify_cq}, {@code ibv_post_send}, {@code ibv_post_recv}), inline functions in
 * {@code verbs.h}, calls the provider's function pointers in the context's operation table just
 * as those inline functions do, so no C shim is needed. Struct layouts are {@link VerbsLayouts},
 * checked against the installed header.
 *
 * <p>Addressing is by LID (an InfiniBand link layer); a RoCE port, which needs GIDs in every
 * address, is declined by {@link #open}. Multicast groups are addressed by their MLID with the
 * GID {@link MulticastGroup#of} derives; joining the group at the subnet manager is the
 * job's launcher's affair, as with {@code ibv_attach_mcast} in C. {@link #portActive} cannot see a
 * remote port's state without the subnet administrator, so it answers true: connection
 * management then relies on its retries, as over hardware it must.
 */
final class RdmaCoreVerbs implements Verbs {
    private static final int PORT = 1;
    private static final int MAX_SGE = 4;
    private static final int POLL_BATCH = 64;
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG = JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN);
    /** Offsets of the fields every post and poll touches, worked out once. */
    private static final long SGE_ADDR = offset(VerbsLayouts.SGE, "addr");
    private static final long SGE_LENGTH = offset(VerbsLayouts.SGE, "length");
    private static final long SGE_LKEY = offset(VerbsLayouts.SGE, "lkey");
    private static final long SEND_WR_ID = offset(VerbsLayouts.SEND_WR, "wr_id");
    private static final long SEND_SG_LIST = offset(VerbsLayouts.SEND_WR, "sg_list");
    private static final long SEND_NUM_SGE = offset(VerbsLayouts.SEND_WR, "num_sge");
    private static final long SEND_OPCODE = offset(VerbsLayouts.SEND_WR, "opcode");
    private static final long SEND_SEND_FLAGS = offset(VerbsLayouts.SEND_WR, "send_flags");
    private static final long SEND_IMM_DATA = offset(VerbsLayouts.SEND_WR, "imm_data");
    private static final long SEND_WR_RDMA_REMOTE_ADDR = offset(VerbsLayouts.SEND_WR, "wr.rdma.remote_addr");
    private static final long SEND_WR_RDMA_RKEY = offset(VerbsLayouts.SEND_WR, "wr.rdma.rkey");
    private static final long SEND_WR_ATOMIC_REMOTE_ADDR = offset(VerbsLayouts.SEND_WR, "wr.atomic.remote_addr");
    private static final long SEND_WR_ATOMIC_COMPARE_ADD = offset(VerbsLayouts.SEND_WR, "wr.atomic.compare_add");
    private static final long SEND_WR_ATOMIC_SWAP = offset(VerbsLayouts.SEND_WR, "wr.atomic.swap");
    private static final long SEND_WR_ATOMIC_RKEY = offset(VerbsLayouts.SEND_WR, "wr.atomic.rkey");
    private static final long SEND_WR_UD_AH = offset(VerbsLayouts.SEND_WR, "wr.ud.ah");
    private static final long SEND_WR_UD_REMOTE_QPN = offset(VerbsLayouts.SEND_WR, "wr.ud.remote_qpn");
    private static final long SEND_WR_UD_REMOTE_QKEY = offset(VerbsLayouts.SEND_WR, "wr.ud.remote_qkey");
    private static final long RECV_WR_ID = offset(VerbsLayouts.RECV_WR, "wr_id");
    private static final long RECV_SG_LIST = offset(VerbsLayouts.RECV_WR, "sg_list");
    private static final long RECV_NUM_SGE = offset(VerbsLayouts.RECV_WR, "num_sge");
    private static final long WC_WR_ID = offset(VerbsLayouts.WC, "wr_id");
    private static final long WC_STATUS = offset(VerbsLayouts.WC, "status");
    private static final long WC_OPCODE = offset(VerbsLayouts.WC, "opcode");
    private static final long WC_QP_NUM = offset(VerbsLayouts.WC, "qp_num");
    private static final long WC_BYTE_LEN = offset(VerbsLayouts.WC, "byte_len");
    private static final long WC_IMM_DATA = offset(VerbsLayouts.WC, "imm_data");
    private static final long WC_SRC_QP = offset(VerbsLayouts.WC, "src_qp");
    private static final long WC_FLAGS = offset(VerbsLayouts.WC, "wc_flags");
    private static final long WC_SLID = offset(VerbsLayouts.WC, "slid");

    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment channel;
    private final String name;
    private final int lid;
    private final int activeMtu;
    /** The provider's data-path entry points, from the context's operation table. */
    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;
    private final MemorySegment postSend;
    private final MemorySegment postRecv;

    private RdmaCoreVerbs(MemorySegment context, String name, int lid, int activeMtu) {
        this.context = context;
        this.name = name;
        this.lid = lid;
        this.activeMtu = activeMtu;
        MemorySegment ops = context.asSlice(VerbsLayouts.CONTEXT.byteOffset(PathElement.groupElement("ops")),
                VerbsLayouts.CONTEXT_OPS);
        this.pollCq = pointer(ops, VerbsLayouts.CONTEXT_OPS, "poll_cq");
        this.reqNotifyCq = pointer(ops, VerbsLayouts.CONTEXT_OPS, "req_notify_cq");
        this.postSend = pointer(ops, VerbsLayouts.CONTEXT_OPS, "post_send");
        this.postRecv = pointer(ops, VerbsLayouts.CONTEXT_OPS, "post_recv");
        this.channel = checked("ibv_create_comp_channel", call(Lib.CREATE_COMP_CHANNEL, context))
                .reinterpret(VerbsLayouts.COMP_CHANNEL.byteSize());
    }

    /**
     * Opens the device named {@code wanted} (the first one when null) and its port 1.
     *
     * @throws VerbsException naming the reason when there is no such device, or its port is not
     *                        active or not InfiniBand
     */
    static RdmaCoreVerbs open(String wanted) {
        try (Arena local = Arena.ofConfined()) {
            MemorySegment count = local.allocate(JAVA_INT);
            MemorySegment list = checked("ibv_get_device_list", call(Lib.GET_DEVICE_LIST, count));
            try {
                int devices = count.get(JAVA_INT, 0);
                MemorySegment pointers = list.reinterpret(ADDRESS.byteSize() * devices);
                for (int i = 0; i < devices; i++) {
                    MemorySegment device = pointers.getAtIndex(ADDRESS, i);
                    String name = ((MemorySegment) call(Lib.GET_DEVICE_NAME, device)).reinterpret(256).getString(0);
                    if (wanted == null || wanted.equals(name)) {
                        return openDevice(device, name, local);
                    }
                }
                throw new VerbsException(wanted == null ? "ibv_get_device_list: no RDMA device"
                        : "no RDMA device named " + wanted);
            } finally {
                call(Lib.FREE_DEVICE_LIST, list);
            }
        }
    }

    private static RdmaCoreVerbs openDevice(MemorySegment device, String name, Arena local) {
        MemorySegment context = checked("ibv_open_device(" + name + ")", call(Lib.OPEN_DEVICE, device))
                .reinterpret(VerbsLayouts.CONTEXT.byteSize());
        MemorySegment port = local.allocate(VerbsLayouts.PORT_ATTR);
        int rc = (int) call(Lib.QUERY_PORT, context, (byte) PORT, port);
        String why = rc != 0 ? "ibv_query_port(" + name + ", 1) failed with errno " + rc
                : port.get(JAVA_INT, offset(VerbsLayouts.PORT_ATTR, "state")) != Ibv.PORT_ACTIVE
                ? name + " port 1 is not active (state " + port.get(JAVA_INT, offset(VerbsLayouts.PORT_ATTR, "state")) + ")"
                : port.get(JAVA_BYTE, offset(VerbsLayouts.PORT_ATTR, "link_layer")) != Ibv.LINK_LAYER_INFINIBAND
                ? name + " port 1 is RoCE (Ethernet link layer): GID addressing is not built yet"
                : null;
        if (why != null) {
            call(Lib.CLOSE_DEVICE, context);
            throw new VerbsException(why);
        }
        return new RdmaCoreVerbs(context, name, Short.toUnsignedInt(port.get(JAVA_SHORT, offset(VerbsLayouts.PORT_ATTR, "lid"))),
                port.get(JAVA_INT, offset(VerbsLayouts.PORT_ATTR, "active_mtu")));
    }

    @Override
    public String deviceName() {
        return name;
    }

    @Override
    public int lid() {
        return lid;
    }

    @Override
    public int activeMtu() {
        return activeMtu;
    }

    @Override
    public boolean portActive(int peerLid) {
        return true;
    }

    @Override
    public ProtectionDomain allocPd() {
        return new NativePd(checked("ibv_alloc_pd", call(Lib.ALLOC_PD, context)));
    }

    @Override
    public CompletionQueue createCq(int depth) {
        if (depth < 1) {
            throw new VerbsException("ibv_create_cq: depth " + depth + " must be at least 1");
        }
        MemorySegment cq = checked("ibv_create_cq", call(Lib.CREATE_CQ, context, depth, MemorySegment.NULL, channel, 0));
        return new NativeCq(cq, depth);
    }

    @Override
    public void close() {
        call(Lib.DESTROY_COMP_CHANNEL, channel);
        call(Lib.CLOSE_DEVICE, context);
        arena.close();
    }

    // ---- protection domains and memory regions ---------------------------------------------

    private final class NativePd implements ProtectionDomain {
        private final MemorySegment pd;
        private final Map<Integer, MemorySegment> regions = new HashMap<>();
        /** Address handles by destination LID, made on first use (ibv_create_ah is a system call). */
        private final Map<Integer, MemorySegment> addressHandles = new HashMap<>();

        NativePd(MemorySegment pd) {
            this.pd = pd;
        }

        @Override
        public MemoryRegion register(MemorySegment memory, int access) {
            if (!memory.isNative()) {
                throw new VerbsException("ibv_reg_mr: only native memory can be registered, not " + memory);
            }
            MemorySegment mr = checked("ibv_reg_mr", call(Lib.REG_MR, pd, memory, memory.byteSize(), access))
                    .reinterpret(VerbsLayouts.MR.byteSize());
            int lkey = mr.get(JAVA_INT, offset(VerbsLayouts.MR, "lkey"));
            regions.put(lkey, mr);
            return new MemoryRegion(memory.address(), memory.byteSize(), lkey, mr.get(JAVA_INT, offset(VerbsLayouts.MR, "rkey")),
                    access);
        }

        @Override
        public void deregister(MemoryRegion region) {
            MemorySegment mr = regions.remove(region.lkey());
            if (mr == null) {
                throw new VerbsException("ibv_dereg_mr: EINVAL: lkey " + Integer.toHexString(region.lkey())
                        + " is not a live region of this protection domain");
            }
            succeeded("ibv_dereg_mr", (int) call(Lib.DEREG_MR, mr));
        }

        @Override
        public QueuePair createQp(Ibv.QpType type, CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr,
                                  int maxRecvWr) {
            MemorySegment init = arena.allocate(VerbsLayouts.QP_INIT_ATTR);
            init.set(ADDRESS, offset(VerbsLayouts.QP_INIT_ATTR, "send_cq"), ((NativeCq) sendCq).cq);
            init.set(ADDRESS, offset(VerbsLayouts.QP_INIT_ATTR, "recv_cq"), ((NativeCq) recvCq).cq);
            init.set(JAVA_INT, offset(VerbsLayouts.QP_INIT_ATTR, "cap.max_send_wr"), maxSendWr);
            init.set(JAVA_INT, offset(VerbsLayouts.QP_INIT_ATTR, "cap.max_recv_wr"), maxRecvWr);
            init.set(JAVA_INT, offset(VerbsLayouts.QP_INIT_ATTR, "cap.max_send_sge"), MAX_SGE);
            init.set(JAVA_INT, offset(VerbsLayouts.QP_INIT_ATTR, "cap.max_recv_sge"), MAX_SGE);
            init.set(JAVA_INT, offset(VerbsLayouts.QP_INIT_ATTR, "qp_type"), type.value);
            MemorySegment qp = checked("ibv_create_qp", call(Lib.CREATE_QP, pd, init))
                    .reinterpret(VerbsLayouts.QP.byteSize());
            return new NativeQp(this, qp, type);
        }

        /** The address handle of a UD destination: a LID, or a multicast group's MLID with its GID. */
        MemorySegment addressHandle(int destinationLid) {
            MemorySegment ah = addressHandles.get(destinationLid);
            if (ah == null) {
                MemorySegment attr = arena.allocate(VerbsLayouts.AH_ATTR);
                attr.set(JAVA_SHORT, offset(VerbsLayouts.AH_ATTR, "dlid"), (short) destinationLid);
                attr.set(JAVA_BYTE, offset(VerbsLayouts.AH_ATTR, "port_num"), (byte) PORT);
                if (MulticastGroup.isMulticast(destinationLid)) {
                    MulticastGroup group = MulticastGroup.of(destinationLid);
                    attr.set(JAVA_BYTE, offset(VerbsLayouts.AH_ATTR, "is_global"), (byte) 1);
                    attr.set(JAVA_BYTE, offset(VerbsLayouts.AH_ATTR, "grh.hop_limit"), (byte) 1);
                    writeGid(attr.asSlice(VerbsLayouts.AH_ATTR.byteOffset(PathElement.groupElement("grh"),
                            PathElement.groupElement("dgid")), 16), group);
                }
                ah = checked("ibv_create_ah", call(Lib.CREATE_AH, pd, attr));
                addressHandles.put(destinationLid, ah);
            }
            return ah;
        }

        @Override
        public void deallocate() {
            addressHandles.values().forEach(ah -> call(Lib.DESTROY_AH, ah));
            addressHandles.clear();
            succeeded("ibv_dealloc_pd", (int) call(Lib.DEALLOC_PD, pd));
        }
    }

    // ---- completion queues -----------------------------------------------------------------

    private final class NativeCq implements CompletionQueue {
        private final MemorySegment cq;
        private final int depth;
        private final MemorySegment completions = arena.allocate(VerbsLayouts.WC, POLL_BATCH);
        private final MemorySegment event = arena.allocate(ADDRESS, 2);
        private final MemorySegment pollFd = arena.allocate(8);

        NativeCq(MemorySegment cq, int depth) {
            this.cq = cq;
            this.depth = depth;
        }

        @Override
        public int poll(WorkCompletion[] into, int max) {
            int n;
            try {
                n = (int) Lib.POLL_CQ.invokeExact(pollCq, cq, Math.min(max, POLL_BATCH), completions);
            } catch (Throwable e) {
                throw new VerbsException("ibv_poll_cq: " + e);
            }
            if (n < 0) {
                throw new VerbsException("ibv_poll_cq failed (" + n + "): the completion queue is in error");
            }
            for (int i = 0; i < n; i++) {
                into[i] = completion(completions.asSlice(i * VerbsLayouts.WC.byteSize(), VerbsLayouts.WC));
            }
            return n;
        }

        /** Arms the queue's event, polls again (a completion may have come in between), then sleeps on the channel. */
        @Override
        public int pollBlocking(WorkCompletion[] into, int max, long timeoutNanos) {
            int n = poll(into, max);
            if (n > 0) {
                return n;
            }
            try {
                succeeded("ibv_req_notify_cq", (int) Lib.REQ_NOTIFY_CQ.invokeExact(reqNotifyCq, cq, 0));
            } catch (Throwable e) {
                throw new VerbsException("ibv_req_notify_cq: " + e);
            }
            n = poll(into, max);
            if (n > 0) {
                return n;
            }
            pollFd.set(JAVA_INT, 0, channel.get(JAVA_INT, offset(VerbsLayouts.COMP_CHANNEL, "fd")));
            pollFd.set(JAVA_SHORT, 4, (short) 1); // POLLIN
            pollFd.set(JAVA_SHORT, 6, (short) 0);
            int ready = (int) call(Lib.POLL, pollFd, 1L, (int) Math.max(1, timeoutNanos / 1_000_000));
            if (ready > 0) {
                succeeded("ibv_get_cq_event", (int) call(Lib.GET_CQ_EVENT, channel, event, event.asSlice(8)));
                call(Lib.ACK_CQ_EVENTS, event.get(ADDRESS, 0), 1);
            }
            return poll(into, max);
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public void destroy() {
            succeeded("ibv_destroy_cq", (int) call(Lib.DESTROY_CQ, cq));
        }
    }

    private static WorkCompletion completion(MemorySegment wc) {
        int flags = wc.get(JAVA_INT, WC_FLAGS);
        boolean withImm = (flags & Ibv.WC_WITH_IMM) != 0;
        return new WorkCompletion(wc.get(JAVA_LONG, WC_WR_ID),
                Ibv.WcStatus.of(wc.get(JAVA_INT, WC_STATUS)),
                Ibv.WcOpcode.of(wc.get(JAVA_INT, WC_OPCODE)),
                wc.get(JAVA_INT, WC_QP_NUM), wc.get(JAVA_INT, WC_BYTE_LEN), withImm,
                withImm ? Integer.reverseBytes(wc.get(JAVA_INT, WC_IMM_DATA)) : 0, // network order
                wc.get(JAVA_INT, WC_SRC_QP),
                Short.toUnsignedInt(wc.get(JAVA_SHORT, WC_SLID)), (flags & Ibv.WC_GRH) != 0);
    }

    // ---- queue pairs -------------------------------------------------------------------------

    private final class NativeQp implements QueuePair {
        private final NativePd pd;
        private final MemorySegment qp;
        private final Ibv.QpType type;
        private final int qpn;
        private Ibv.QpState state = Ibv.QpState.RESET;
        /** One request and its gather list, filled for each post (the provider copies them into the queue). */
        private final MemorySegment sendWr = arena.allocate(VerbsLayouts.SEND_WR);
        private final MemorySegment recvWr = arena.allocate(VerbsLayouts.RECV_WR);
        private final MemorySegment sges = arena.allocate(VerbsLayouts.SGE, MAX_SGE);
        private final MemorySegment badWr = arena.allocate(ADDRESS);
        private final MemorySegment attr = arena.allocate(VerbsLayouts.QP_ATTR);
        private final MemorySegment gid = arena.allocate(16, 8);

        NativeQp(NativePd pd, MemorySegment qp, Ibv.QpType type) {
            this.pd = pd;
            this.qp = qp;
            this.type = type;
            this.qpn = qp.get(JAVA_INT, offset(VerbsLayouts.QP, "qp_num"));
        }

        @Override
        public int qpNum() {
            return qpn;
        }

        @Override
        public Ibv.QpType type() {
            return type;
        }

        @Override
        public Ibv.QpState state() {
            return state;
        }

        @Override
        public void modify(QpAttributes a, int mask) {
            StructLayout l = VerbsLayouts.QP_ATTR;
            attr.fill((byte) 0);
            attr.set(JAVA_INT, offset(l, "qp_state"), a.state == null ? 0 : a.state.ordinal());
            attr.set(JAVA_INT, offset(l, "qp_access_flags"), a.accessFlags);
            attr.set(JAVA_SHORT, offset(l, "pkey_index"), (short) a.pkeyIndex);
            attr.set(JAVA_BYTE, offset(l, "port_num"), (byte) a.port);
            attr.set(JAVA_INT, offset(l, "qkey"), a.qkey);
            attr.set(JAVA_SHORT, offset(l, "ah_attr.dlid"), (short) a.destLid);
            attr.set(JAVA_BYTE, offset(l, "ah_attr.port_num"), (byte) PORT);
            attr.set(JAVA_INT, offset(l, "path_mtu"), a.pathMtu);
            attr.set(JAVA_INT, offset(l, "dest_qp_num"), a.destQpn);
            attr.set(JAVA_INT, offset(l, "rq_psn"), a.rqPsn);
            attr.set(JAVA_INT, offset(l, "sq_psn"), a.sqPsn);
            attr.set(JAVA_BYTE, offset(l, "max_dest_rd_atomic"), (byte) a.maxDestRdAtomic);
            attr.set(JAVA_BYTE, offset(l, "max_rd_atomic"), (byte) a.maxRdAtomic);
            attr.set(JAVA_BYTE, offset(l, "min_rnr_timer"), (byte) a.minRnrTimer);
            attr.set(JAVA_BYTE, offset(l, "timeout"), (byte) a.timeout);
            attr.set(JAVA_BYTE, offset(l, "retry_cnt"), (byte) a.retryCount);
            attr.set(JAVA_BYTE, offset(l, "rnr_retry"), (byte) a.rnrRetry);
            int rc = (int) call(Lib.MODIFY_QP, qp, attr, mask);
            if (rc != 0) {
                throw new VerbsException("ibv_modify_qp(" + this + ", to " + a.state + ", mask 0x"
                        + Integer.toHexString(mask) + ") failed with errno " + rc);
            }
            if ((mask & Ibv.QP_STATE) != 0) {
                state = a.state;
            }
        }

        @Override
        public void postSend(SendRequest request) {
            sendWr.fill((byte) 0);
            sendWr.set(JAVA_LONG, SEND_WR_ID, request.wrId());
            sendWr.set(ADDRESS, SEND_SG_LIST, gatherList(request.sges()));
            sendWr.set(JAVA_INT, SEND_NUM_SGE, request.sges().size());
            sendWr.set(JAVA_INT, SEND_OPCODE, request.opcode().value);
            sendWr.set(JAVA_INT, SEND_SEND_FLAGS, Ibv.SEND_SIGNALED);
            sendWr.set(JAVA_INT, SEND_IMM_DATA, Integer.reverseBytes(request.immData())); // network order
            switch (request.opcode()) {
                case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> {
                    sendWr.set(JAVA_LONG, SEND_WR_RDMA_REMOTE_ADDR, request.remoteAddress());
                    sendWr.set(JAVA_INT, SEND_WR_RDMA_RKEY, request.rkey());
                }
                case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                    sendWr.set(JAVA_LONG, SEND_WR_ATOMIC_REMOTE_ADDR, request.remoteAddress());
                    sendWr.set(JAVA_LONG, SEND_WR_ATOMIC_COMPARE_ADD, request.compareAdd());
                    sendWr.set(JAVA_LONG, SEND_WR_ATOMIC_SWAP, request.swap());
                    sendWr.set(JAVA_INT, SEND_WR_ATOMIC_RKEY, request.rkey());
                }
                default -> {
                }
            }
            if (type == Ibv.QpType.UD) {
                SendRequest.Destination to = request.destination();
                if (to == null) {
                    throw new VerbsException("ibv_post_send(" + this + "): EINVAL: a UD request needs an address handle");
                }
                sendWr.set(ADDRESS, SEND_WR_UD_AH, pd.addressHandle(to.lid()));
                sendWr.set(JAVA_INT, SEND_WR_UD_REMOTE_QPN, to.qpn());
                sendWr.set(JAVA_INT, SEND_WR_UD_REMOTE_QKEY, to.qkey());
            }
            int rc;
            try {
                rc = (int) Lib.POST.invokeExact(postSend, qp, sendWr, badWr);
            } catch (Throwable e) {
                throw new VerbsException("ibv_post_send: " + e);
            }
            if (rc != 0) {
                throw new VerbsException("ibv_post_send(" + this + ", " + request.opcode() + ") failed with errno " + rc);
            }
        }

        @Override
        public void postRecv(RecvRequest request) {
            recvWr.fill((byte) 0);
            recvWr.set(JAVA_LONG, RECV_WR_ID, request.wrId());
            recvWr.set(ADDRESS, RECV_SG_LIST, gatherList(request.sges()));
            recvWr.set(JAVA_INT, RECV_NUM_SGE, request.sges().size());
            int rc;
            try {
                rc = (int) Lib.POST.invokeExact(postRecv, qp, recvWr, badWr);
            } catch (Throwable e) {
                throw new VerbsException("ibv_post_recv: " + e);
            }
            if (rc != 0) {
                throw new VerbsException("ibv_post_recv(" + this + ") failed with errno " + rc);
            }
        }

        private MemorySegment gatherList(List<Sge> list) {
            if (list.size() > MAX_SGE) {
                throw new VerbsException("ibv_post: " + list.size() + " scatter/gather elements, at most " + MAX_SGE);
            }
            for (int i = 0; i < list.size(); i++) {
                MemorySegment sge = sges.asSlice(i * VerbsLayouts.SGE.byteSize(), VerbsLayouts.SGE);
                sge.set(JAVA_LONG, SGE_ADDR, list.get(i).address());
                sge.set(JAVA_INT, SGE_LENGTH, list.get(i).length());
                sge.set(JAVA_INT, SGE_LKEY, list.get(i).lkey());
            }
            return sges;
        }

        @Override
        public void attachMulticast(MulticastGroup group) {
            writeGid(gid, group);
            succeeded("ibv_attach_mcast", (int) call(Lib.ATTACH_MCAST, qp, gid, (short) group.mlid()));
        }

        @Override
        public void detachMulticast(MulticastGroup group) {
            writeGid(gid, group);
            succeeded("ibv_detach_mcast", (int) call(Lib.DETACH_MCAST, qp, gid, (short) group.mlid()));
        }

        @Override
        public void destroy() {
            succeeded("ibv_destroy_qp", (int) call(Lib.DESTROY_QP, qp));
        }

        @Override
        public String toString() {
            return type + " QP " + qpn + " of " + name;
        }
    }

    // ---- helpers ----------------------------------------------------------------------------

    private static void writeGid(MemorySegment into, MulticastGroup group) {
        into.set(BIG_ENDIAN_LONG, 0, group.gidHigh());
        into.set(BIG_ENDIAN_LONG, 8, group.gidLow());
    }

    private static MemorySegment pointer(MemorySegment struct, StructLayout layout, String field) {
        return struct.get(ADDRESS, layout.byteOffset(PathElement.groupElement(field)));
    }

    private static PathElement[] path(String dotted) {
        String[] names = dotted.split("\\.");
        PathElement[] path = new PathElement[names.length];
        for (int i = 0; i < names.length; i++) {
            path[i] = PathElement.groupElement(names[i]);
        }
        return path;
    }

    /** The offset of a (dotted) field, as {@link VerbsLayouts} lays it out. */
    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(path(field));
    }

    private static MemorySegment checked(String what, Object result) {
        MemorySegment pointer = (MemorySegment) result;
        if (pointer.equals(MemorySegment.NULL)) {
            throw new VerbsException(what + " failed (errno " + Lib.lastErrno() + ")");
        }
        return pointer;
    }

    private static void succeeded(String what, int rc) {
        if (rc != 0) {
            throw new VerbsException(what + " failed with errno " + (rc < 0 ? Lib.lastErrno() : rc));
        }
    }

    private static Object call(MethodHandle handle, Object... arguments) {
        try {
            return handle.invokeWithArguments(arguments);
        } catch (Throwable e) {
            throw new VerbsException("calling " + RdmaCore.LIBRARY + " failed: " + e);
        }
    }

    /** The library's calls, linked when the first device is opened. */
    private static final class Lib {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final SymbolLookup IBVERBS = SymbolLookup.libraryLookup(RdmaCore.LIBRARY, Arena.global());
        private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        private static final VarHandle ERRNO = CALL_STATE.varHandle(PathElement.groupElement("errno"));
        private static final ThreadLocal<MemorySegment> CALL_STATES =
                ThreadLocal.withInitial(() -> Arena.global().allocate(CALL_STATE));
        private static final MethodHandle CALL_STATE_OF_THREAD;

        static {
            try {
                CALL_STATE_OF_THREAD = MethodHandles.lookup().findStatic(Lib.class, "callState",
                        MethodType.methodType(MemorySegment.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        static final MethodHandle GET_DEVICE_LIST = errnoCall("ibv_get_device_list", ADDRESS, ADDRESS);
        static final MethodHandle FREE_DEVICE_LIST = voidCall("ibv_free_device_list", ADDRESS);
        static final MethodHandle GET_DEVICE_NAME = call("ibv_get_device_name", ADDRESS, ADDRESS);
        static final MethodHandle OPEN_DEVICE = errnoCall("ibv_open_device", ADDRESS, ADDRESS);
        static final MethodHandle CLOSE_DEVICE = call("ibv_close_device", JAVA_INT, ADDRESS);
        static final MethodHandle QUERY_PORT = call("ibv_query_port", JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS);
        static final MethodHandle ALLOC_PD = errnoCall("ibv_alloc_pd", ADDRESS, ADDRESS);
        static final MethodHandle DEALLOC_PD = call("ibv_dealloc_pd", JAVA_INT, ADDRESS);
        static final MethodHandle REG_MR = errnoCall("ibv_reg_mr", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT);
        static final MethodHandle DEREG_MR = call("ibv_dereg_mr", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_COMP_CHANNEL = errnoCall("ibv_create_comp_channel", ADDRESS, ADDRESS);
        static final MethodHandle DESTROY_COMP_CHANNEL = call("ibv_destroy_comp_channel", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_CQ = errnoCall("ibv_create_cq", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                JAVA_INT);
        static final MethodHandle DESTROY_CQ = call("ibv_destroy_cq", JAVA_INT, ADDRESS);
        static final MethodHandle GET_CQ_EVENT = call("ibv_get_cq_event", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle ACK_CQ_EVENTS = voidCall("ibv_ack_cq_events", ADDRESS, JAVA_INT);
        static final MethodHandle CREATE_QP = errnoCall("ibv_create_qp", ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle MODIFY_QP = call("ibv_modify_qp", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        static final MethodHandle DESTROY_QP = call("ibv_destroy_qp", JAVA_INT, ADDRESS);
        static final MethodHandle CREATE_AH = errnoCall("ibv_create_ah", ADDRESS, ADDRESS, ADDRESS);
        static final MethodHandle DESTROY_AH = call("ibv_destroy_ah", JAVA_INT, ADDRESS);
        static final MethodHandle ATTACH_MCAST = call("ibv_attach_mcast", JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT);
        static final MethodHandle DETACH_MCAST = call("ibv_detach_mcast", JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT);
        static final MethodHandle POLL = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("poll"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

        /** The provider's entry points: called by address, short and without blocking. */
        static final MethodHandle POLL_CQ = LINKER.downcallHandle(
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), Linker.Option.critical(false));
        static final MethodHandle REQ_NOTIFY_CQ = LINKER.downcallHandle(
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), Linker.Option.critical(false));
        static final MethodHandle POST = LINKER.downcallHandle(
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(false));

        private static MethodHandle call(String name, MemoryLayout result, MemoryLayout... arguments) {
            return LINKER.downcallHandle(IBVERBS.findOrThrow(name), FunctionDescriptor.of(result, arguments));
        }

        private static MethodHandle voidCall(String name, MemoryLayout... arguments) {
            return LINKER.downcallHandle(IBVERBS.findOrThrow(name), FunctionDescriptor.ofVoid(arguments));
        }

        /** A call whose errno is kept: the handle takes the thread's call-state segment first. */
        private static MethodHandle errnoCall(String name, MemoryLayout result, MemoryLayout... arguments) {
            MethodHandle raw = LINKER.downcallHandle(IBVERBS.findOrThrow(name), FunctionDescriptor.of(result, arguments),
                    Linker.Option.captureCallState("errno"));
            return MethodHandles.foldArguments(raw, 0, CALL_STATE_OF_THREAD);
        }

        private static MemorySegment callState() {
            return CALL_STATES.get();
        }

        static int lastErrno() {
            return (int) ERRNO.get(CALL_STATES.get(), 0L);
        }
    }
}
