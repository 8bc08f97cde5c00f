package org.jmca.btl.verbs;

/**
 * {@code struct ibv_qp_attr} for {@link QueuePair#modify}: each setter also sets its bit of
 * {@link #mask()}, so {@code qp.modify(attr, attr.mask())} passes exactly what was set, and a test
 * can pass another mask to see the verb refuse it.
 */
public final class QpAttributes {
    private int mask;
    Ibv.QpState state;
    int accessFlags;
    int pkeyIndex;
    int port;
    int qkey;
    int destLid;
    int pathMtu;
    int destQpn;
    int rqPsn;
    int sqPsn;
    int maxDestRdAtomic;
    int maxRdAtomic;
    int minRnrTimer;
    int timeout;
    int retryCount;
    int rnrRetry;

    public int mask() {
        return mask;
    }

    public QpAttributes state(Ibv.QpState value) {
        state = value;
        mask |= Ibv.QP_STATE;
        return this;
    }

    public QpAttributes accessFlags(int value) {
        accessFlags = value;
        mask |= Ibv.QP_ACCESS_FLAGS;
        return this;
    }

    public QpAttributes pkeyIndex(int value) {
        pkeyIndex = value;
        mask |= Ibv.QP_PKEY_INDEX;
        return this;
    }

    public QpAttributes port(int value) {
        port = value;
        mask |= Ibv.QP_PORT;
        return this;
    }

    public QpAttributes qkey(int value) {
        qkey = value;
        mask |= Ibv.QP_QKEY;
        return this;
    }

    /** The address vector ({@code ah_attr}): here, the destination LID. */
    public QpAttributes destLid(int value) {
        destLid = value;
        mask |= Ibv.QP_AV;
        return this;
    }

    public QpAttributes pathMtu(int value) {
        pathMtu = value;
        mask |= Ibv.QP_PATH_MTU;
        return this;
    }

    public QpAttributes destQpn(int value) {
        destQpn = value;
        mask |= Ibv.QP_DEST_QPN;
        return this;
    }

    public QpAttributes rqPsn(int value) {
        rqPsn = value;
        mask |= Ibv.QP_RQ_PSN;
        return this;
    }

    public QpAttributes sqPsn(int value) {
        sqPsn = value;
        mask |= Ibv.QP_SQ_PSN;
        return this;
    }

    public QpAttributes maxDestRdAtomic(int value) {
        maxDestRdAtomic = value;
        mask |= Ibv.QP_MAX_DEST_RD_ATOMIC;
        return this;
    }

    public QpAttributes maxRdAtomic(int value) {
        maxRdAtomic = value;
        mask |= Ibv.QP_MAX_QP_RD_ATOMIC;
        return this;
    }

    public QpAttributes minRnrTimer(int value) {
        minRnrTimer = value;
        mask |= Ibv.QP_MIN_RNR_TIMER;
        return this;
    }

    public QpAttributes timeout(int value) {
        timeout = value;
        mask |= Ibv.QP_TIMEOUT;
        return this;
    }

    public QpAttributes retryCount(int value) {
        retryCount = value;
        mask |= Ibv.QP_RETRY_CNT;
        return this;
    }

    public QpAttributes rnrRetry(int value) {
        rnrRetry = value;
        mask |= Ibv.QP_RNR_RETRY;
        return this;
    }
}
