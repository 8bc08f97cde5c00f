package org.jmca.btl.verbs;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.MemoryLayout.unionLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.StructLayout;
import java.util.Map;

/**
 * The rdma-core structures JMCA fills and reads, as {@code <infiniband/verbs.h>} declares them on
 * 64-bit Linux; names follow the header, so {@code VerbsLayoutsTest} can check every field's offset
 * against a program compiled with the installed header. An anonymous union is laid out as its
 * largest member, which comes first in each ({@code imm_data}, {@code bind_mw}); JMCA uses no
 * other member of them.
 */
final class VerbsLayouts {
    static final StructLayout SGE = structLayout(
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("length"),
            JAVA_INT.withName("lkey")).withName("ibv_sge");

    static final StructLayout RECV_WR = structLayout(
            JAVA_LONG.withName("wr_id"),
            ADDRESS.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge"),
            paddingLayout(4)).withName("ibv_recv_wr");

    private static final StructLayout MW_BIND_INFO = structLayout(
            ADDRESS.withName("mr"),
            JAVA_LONG.withName("addr"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("mw_access_flags"),
            paddingLayout(4)).withName("bind_info");

    static final StructLayout SEND_WR = structLayout(
            JAVA_LONG.withName("wr_id"),
            ADDRESS.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge"),
            JAVA_INT.withName("opcode"),
            JAVA_INT.withName("send_flags"),
            JAVA_INT.withName("imm_data"),
            unionLayout(
                    structLayout(
                            JAVA_LONG.withName("remote_addr"),
                            JAVA_INT.withName("rkey"),
                            paddingLayout(4)).withName("rdma"),
                    structLayout(
                            JAVA_LONG.withName("remote_addr"),
                            JAVA_LONG.withName("compare_add"),
                            JAVA_LONG.withName("swap"),
                            JAVA_INT.withName("rkey"),
                            paddingLayout(4)).withName("atomic"),
                    structLayout(
                            ADDRESS.withName("ah"),
                            JAVA_INT.withName("remote_qpn"),
                            JAVA_INT.withName("remote_qkey")).withName("ud")).withName("wr"),
            unionLayout(structLayout(JAVA_INT.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
            paddingLayout(4),
            structLayout(
                    ADDRESS.withName("mw"),
                    JAVA_INT.withName("rkey"),
                    paddingLayout(4),
                    MW_BIND_INFO).withName("bind_mw")).withName("ibv_send_wr");

    static final StructLayout WC = structLayout(
            JAVA_LONG.withName("wr_id"),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("opcode"),
            JAVA_INT.withName("vendor_err"),
            JAVA_INT.withName("byte_len"),
            JAVA_INT.withName("imm_data"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("src_qp"),
            JAVA_INT.withName("wc_flags"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("slid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("dlid_path_bits"),
            paddingLayout(2)).withName("ibv_wc");

    static final StructLayout QP_CAP = structLayout(
            JAVA_INT.withName("max_send_wr"),
            JAVA_INT.withName("max_recv_wr"),
            JAVA_INT.withName("max_send_sge"),
            JAVA_INT.withName("max_recv_sge"),
            JAVA_INT.withName("max_inline_data")).withName("ibv_qp_cap");

    static final StructLayout QP_INIT_ATTR = structLayout(
            ADDRESS.withName("qp_context"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            QP_CAP.withName("cap"),
            JAVA_INT.withName("qp_type"),
            JAVA_INT.withName("sq_sig_all"),
            paddingLayout(4)).withName("ibv_qp_init_attr");

    /** glibc's {@code pthread_mutex_t} and {@code pthread_cond_t} on x86-64, opaque here. */
    private static final int MUTEX_BYTES = 40;
    private static final int COND_BYTES = 48;

    /**
     * {@code struct ibv_context_ops}: 32 function pointers; the data path's inline calls
     * ({@code ibv_poll_cq}, {@code ibv_post_send}, ...) go through the four named here.
     */
    static final StructLayout CONTEXT_OPS = structLayout(
            paddingLayout(11 * 8),
            ADDRESS.withName("poll_cq"),
            ADDRESS.withName("req_notify_cq"),
            paddingLayout(12 * 8),
            ADDRESS.withName("post_send"),
            ADDRESS.withName("post_recv"),
            paddingLayout(5 * 8)).withName("ibv_context_ops");

    static final StructLayout CONTEXT = structLayout(
            ADDRESS.withName("device"),
            CONTEXT_OPS.withName("ops"),
            JAVA_INT.withName("cmd_fd"),
            JAVA_INT.withName("async_fd"),
            JAVA_INT.withName("num_comp_vectors"),
            paddingLayout(4),
            sequenceLayout(MUTEX_BYTES, JAVA_BYTE).withName("mutex"),
            ADDRESS.withName("abi_compat")).withName("ibv_context");

    static final StructLayout MR = structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("pd"),
            ADDRESS.withName("addr"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("lkey"),
            JAVA_INT.withName("rkey"),
            paddingLayout(4)).withName("ibv_mr");

    static final StructLayout CQ = structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("channel"),
            ADDRESS.withName("cq_context"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("cqe"),
            sequenceLayout(MUTEX_BYTES, JAVA_BYTE).withName("mutex"),
            sequenceLayout(COND_BYTES, JAVA_BYTE).withName("cond"),
            JAVA_INT.withName("comp_events_completed"),
            JAVA_INT.withName("async_events_completed")).withName("ibv_cq");

    static final StructLayout COMP_CHANNEL = structLayout(
            ADDRESS.withName("context"),
            JAVA_INT.withName("fd"),
            JAVA_INT.withName("refcnt")).withName("ibv_comp_channel");

    static final StructLayout QP = structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("qp_context"),
            ADDRESS.withName("pd"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("state"),
            JAVA_INT.withName("qp_type"),
            sequenceLayout(MUTEX_BYTES, JAVA_BYTE).withName("mutex"),
            sequenceLayout(COND_BYTES, JAVA_BYTE).withName("cond"),
            JAVA_INT.withName("events_completed"),
            paddingLayout(4)).withName("ibv_qp");

    /** {@code union ibv_gid} as its {@code global} member: two big-endian halves. */
    private static final java.lang.foreign.UnionLayout GID = unionLayout(structLayout(
            JAVA_LONG.withName("subnet_prefix"),
            JAVA_LONG.withName("interface_id")).withName("global"));

    static final StructLayout GLOBAL_ROUTE = structLayout(
            GID.withName("dgid"),
            JAVA_INT.withName("flow_label"),
            JAVA_BYTE.withName("sgid_index"),
            JAVA_BYTE.withName("hop_limit"),
            JAVA_BYTE.withName("traffic_class"),
            paddingLayout(1)).withName("ibv_global_route");

    static final StructLayout AH_ATTR = structLayout(
            GLOBAL_ROUTE.withName("grh"),
            JAVA_SHORT.withName("dlid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("src_path_bits"),
            JAVA_BYTE.withName("static_rate"),
            JAVA_BYTE.withName("is_global"),
            JAVA_BYTE.withName("port_num"),
            paddingLayout(1)).withName("ibv_ah_attr");

    static final StructLayout QP_ATTR = structLayout(
            JAVA_INT.withName("qp_state"),
            JAVA_INT.withName("cur_qp_state"),
            JAVA_INT.withName("path_mtu"),
            JAVA_INT.withName("path_mig_state"),
            JAVA_INT.withName("qkey"),
            JAVA_INT.withName("rq_psn"),
            JAVA_INT.withName("sq_psn"),
            JAVA_INT.withName("dest_qp_num"),
            JAVA_INT.withName("qp_access_flags"),
            QP_CAP.withName("cap"),
            AH_ATTR.withName("ah_attr"),
            AH_ATTR.withName("alt_ah_attr"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("alt_pkey_index"),
            JAVA_BYTE.withName("en_sqd_async_notify"),
            JAVA_BYTE.withName("sq_draining"),
            JAVA_BYTE.withName("max_rd_atomic"),
            JAVA_BYTE.withName("max_dest_rd_atomic"),
            JAVA_BYTE.withName("min_rnr_timer"),
            JAVA_BYTE.withName("port_num"),
            JAVA_BYTE.withName("timeout"),
            JAVA_BYTE.withName("retry_cnt"),
            JAVA_BYTE.withName("rnr_retry"),
            JAVA_BYTE.withName("alt_port_num"),
            JAVA_BYTE.withName("alt_timeout"),
            paddingLayout(1),
            JAVA_INT.withName("rate_limit"),
            paddingLayout(4)).withName("ibv_qp_attr");

    static final StructLayout PORT_ATTR = structLayout(
            JAVA_INT.withName("state"),
            JAVA_INT.withName("max_mtu"),
            JAVA_INT.withName("active_mtu"),
            JAVA_INT.withName("gid_tbl_len"),
            JAVA_INT.withName("port_cap_flags"),
            JAVA_INT.withName("max_msg_sz"),
            JAVA_INT.withName("bad_pkey_cntr"),
            JAVA_INT.withName("qkey_viol_cntr"),
            JAVA_SHORT.withName("pkey_tbl_len"),
            JAVA_SHORT.withName("lid"),
            JAVA_SHORT.withName("sm_lid"),
            JAVA_BYTE.withName("lmc"),
            JAVA_BYTE.withName("max_vl_num"),
            JAVA_BYTE.withName("sm_sl"),
            JAVA_BYTE.withName("subnet_timeout"),
            JAVA_BYTE.withName("init_type_reply"),
            JAVA_BYTE.withName("active_width"),
            JAVA_BYTE.withName("active_speed"),
            JAVA_BYTE.withName("phys_state"),
            JAVA_BYTE.withName("link_layer"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("port_cap_flags2"),
            paddingLayout(2)).withName("ibv_port_attr");

    /** Every layout above by its C struct name. */
    static final Map<String, StructLayout> ALL = Map.ofEntries(
            Map.entry("ibv_sge", SGE), Map.entry("ibv_recv_wr", RECV_WR), Map.entry("ibv_send_wr", SEND_WR),
            Map.entry("ibv_wc", WC), Map.entry("ibv_qp_cap", QP_CAP), Map.entry("ibv_qp_init_attr", QP_INIT_ATTR),
            Map.entry("ibv_context_ops", CONTEXT_OPS), Map.entry("ibv_context", CONTEXT), Map.entry("ibv_mr", MR),
            Map.entry("ibv_comp_channel", COMP_CHANNEL),
            Map.entry("ibv_cq", CQ), Map.entry("ibv_qp", QP), Map.entry("ibv_global_route", GLOBAL_ROUTE),
            Map.entry("ibv_ah_attr", AH_ATTR), Map.entry("ibv_qp_attr", QP_ATTR), Map.entry("ibv_port_attr", PORT_ATTR));

    private VerbsLayouts() {
    }
}
