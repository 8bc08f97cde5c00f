package org.jmca.btl.verbs;

import java.util.List;

/** {@code struct ibv_recv_wr}: a buffer (scatter list) for one incoming message. */
public record RecvRequest(long wrId, List<Sge> sges) {
    public RecvRequest {
        sges = List.copyOf(sges);
    }

    public long bytes() {
        long n = 0;
        for (Sge sge : sges) {
            n += sge.length();
        }
        return n;
    }
}
