package org.jmca.btl.verbs;

import java.util.List;

/**
 * {@code struct ibv_send_wr}, one request: the opcode, the local gather list, and what the opcode
 * needs — immediate data, the remote address and rkey of RDMA and atomics, the destination of UD.
 */
public record SendRequest(long wrId, Ibv.Opcode opcode, List<Sge> sges, int immData, long remoteAddress, int rkey,
                          Destination destination, long compareAdd, long swap) {
    public SendRequest {
        sges = List.copyOf(sges);
    }

    /** The UD destination: {@code ibv_ah} (a LID) with the remote QP number and its Q_Key. */
    public record Destination(int lid, int qpn, int qkey) {
    }

    public static SendRequest send(long wrId, List<Sge> sges) {
        return new SendRequest(wrId, Ibv.Opcode.SEND, sges, 0, 0, 0, null, 0, 0);
    }

    public static SendRequest sendWithImm(long wrId, List<Sge> sges, int imm) {
        return new SendRequest(wrId, Ibv.Opcode.SEND_WITH_IMM, sges, imm, 0, 0, null, 0, 0);
    }

    public static SendRequest rdma(long wrId, Ibv.Opcode opcode, List<Sge> sges, long remoteAddress, int rkey) {
        return new SendRequest(wrId, opcode, sges, 0, remoteAddress, rkey, null, 0, 0);
    }

    public static SendRequest datagram(long wrId, List<Sge> sges, Destination to) {
        return new SendRequest(wrId, Ibv.Opcode.SEND, sges, 0, 0, 0, to, 0, 0);
    }

    public long bytes() {
        long n = 0;
        for (Sge sge : sges) {
            n += sge.length();
        }
        return n;
    }
}
