package org.jmca.btl.verbs;

import static java.lang.foreign.MemoryLayout.paddingLayout;
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

    /** Every layout above by its C struct name. */
    static final Map<String, StructLayout> ALL = Map.of(
            "ibv_sge", SGE, "ibv_recv_wr", RECV_WR, "ibv_send_wr", SEND_WR, "ibv_wc", WC,
            "ibv_qp_cap", QP_CAP, "ibv_qp_init_attr", QP_INIT_ATTR);

    private VerbsLayouts() {
    }
}
