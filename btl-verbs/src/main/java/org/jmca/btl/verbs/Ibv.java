package org.jmca.btl.verbs;

/**
 * The constants of {@code <infiniband/verbs.h>} that the {@link Verbs} interface uses, with the
 * header's values (VerbsLayoutsTest compares them with the installed header), so that a reader
 * who knows verbs recognises every name and number.
 */
public final class Ibv {
    private Ibv() {
    }

    /** {@code enum ibv_access_flags}. */
    public static final int ACCESS_LOCAL_WRITE = 1;
    public static final int ACCESS_REMOTE_WRITE = 1 << 1;
    public static final int ACCESS_REMOTE_READ = 1 << 2;
    public static final int ACCESS_REMOTE_ATOMIC = 1 << 3;

    /** {@code enum ibv_qp_attr_mask}. */
    public static final int QP_STATE = 1;
    public static final int QP_CUR_STATE = 1 << 1;
    public static final int QP_ACCESS_FLAGS = 1 << 3;
    public static final int QP_PKEY_INDEX = 1 << 4;
    public static final int QP_PORT = 1 << 5;
    public static final int QP_QKEY = 1 << 6;
    public static final int QP_AV = 1 << 7;
    public static final int QP_PATH_MTU = 1 << 8;
    public static final int QP_TIMEOUT = 1 << 9;
    public static final int QP_RETRY_CNT = 1 << 10;
    public static final int QP_RNR_RETRY = 1 << 11;
    public static final int QP_RQ_PSN = 1 << 12;
    public static final int QP_MAX_QP_RD_ATOMIC = 1 << 13;
    public static final int QP_ALT_PATH = 1 << 14;
    public static final int QP_MIN_RNR_TIMER = 1 << 15;
    public static final int QP_SQ_PSN = 1 << 16;
    public static final int QP_MAX_DEST_RD_ATOMIC = 1 << 17;
    public static final int QP_PATH_MIG_STATE = 1 << 18;
    public static final int QP_DEST_QPN = 1 << 20;

    /** {@code enum ibv_send_flags}: a completion for this request. */
    public static final int SEND_SIGNALED = 1 << 1;

    /** {@code enum ibv_wc_flags}. */
    public static final int WC_GRH = 1;
    public static final int WC_WITH_IMM = 1 << 1;

    /** {@code enum ibv_port_state} and the link layers of {@code ibv_port_attr}. */
    public static final int PORT_ACTIVE = 4;
    public static final int LINK_LAYER_INFINIBAND = 1;

    /** The bytes of the global route header at the start of every UD receive buffer. */
    public static final int GRH_BYTES = 40;

    /** {@code enum ibv_qp_state}, in the header's order. */
    public enum QpState { RESET, INIT, RTR, RTS, SQD, SQE, ERR }

    /** {@code enum ibv_qp_type}: the two this transport uses. */
    public enum QpType {
        RC(2), UD(4);

        public final int value;

        QpType(int value) {
            this.value = value;
        }
    }

    /** {@code enum ibv_wr_opcode}. */
    public enum Opcode {
        RDMA_WRITE(0), RDMA_WRITE_WITH_IMM(1), SEND(2), SEND_WITH_IMM(3), RDMA_READ(4), ATOMIC_CMP_AND_SWP(5),
        ATOMIC_FETCH_AND_ADD(6);

        public final int value;

        Opcode(int value) {
            this.value = value;
        }
    }

    /** {@code enum ibv_wc_status}, every value in the header's order. */
    public enum WcStatus {
        SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_EEC_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, MW_BIND_ERR, BAD_RESP_ERR,
        LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, RETRY_EXC_ERR, RNR_RETRY_EXC_ERR,
        LOC_RDD_VIOL_ERR, REM_INV_RD_REQ_ERR, REM_ABORT_ERR, INV_EECN_ERR, INV_EEC_STATE_ERR, FATAL_ERR,
        RESP_TIMEOUT_ERR, GENERAL_ERR, TM_ERR, TM_RNDV_INCOMPLETE;

        private static final WcStatus[] BY_VALUE = values();

        /** The status of a completion a device wrote; one the header does not name is a general error. */
        public static WcStatus of(int value) {
            return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : GENERAL_ERR;
        }
    }

    /** {@code enum ibv_wc_opcode}: the ones this transport posts or receives. */
    public enum WcOpcode {
        SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), RECV(128), RECV_RDMA_WITH_IMM(129);

        public final int value;

        WcOpcode(int value) {
            this.value = value;
        }

        /** The opcode of a completion, or null for one not named here (an error completion's is undefined). */
        public static WcOpcode of(int value) {
            for (WcOpcode opcode : values()) {
                if (opcode.value == value) {
                    return opcode;
                }
            }
            return null;
        }
    }

    /** {@code enum ibv_mtu}: 1 = 256 bytes ... 5 = 4096 bytes. */
    public static int mtuBytes(int mtu) {
        if (mtu < 1 || mtu > 5) {
            throw new IllegalArgumentException("path MTU code " + mtu + " is not one of IBV_MTU_256 (1) .. IBV_MTU_4096 (5)");
        }
        return 128 << mtu;
    }

    /**
     * The RNR NAK timer of the InfiniBand specification (table 45): code 0 is 655.36 ms, codes 1 to
     * 31 run from 0.01 ms to 491.52 ms.
     */
    public static long rnrTimerNanos(int code) {
        if (code < 0 || code > 31) {
            throw new IllegalArgumentException("min_rnr_timer " + code + " is outside 0..31");
        }
        return RNR_TIMER_MICROS_X100[code] * 10_000L;
    }

    private static final long[] RNR_TIMER_MICROS_X100 = {65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
            256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152};

    /** The local ACK timeout of {@code ibv_qp_attr.timeout}: 4.096 µs × 2^timeout (0 means infinite). */
    public static long ackTimeoutNanos(int code) {
        if (code < 0 || code > 31) {
            throw new IllegalArgumentException("timeout " + code + " is outside 0..31");
        }
        return code == 0 ? Long.MAX_VALUE : 4096L << code;
    }
}
