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

    /** ATOMIC_FETCH_AND_ADD: adds {@code add} to the 8 bytes at {@code remoteAddress}; the old value lands in {@code into}. */
    public static SendRequest fetchAndAdd(long wrId, Sge into, long remoteAddress, int rkey, long add) {
        return new SendRequest(wrId, Ibv.Opcode.ATOMIC_FETCH_AND_ADD, List.of(into), 0, remoteAddress, rkey, null, add, 0);
    }

    /** ATOMIC_CMP_AND_SWP: if the 8 bytes at {@code remoteAddress} equal {@code compare}, they become {@code swap}. */
    public static SendRequest compareAndSwap(long wrId, Sge into, long remoteAddress, int rkey, long compare, long swap) {
        return new SendRequest(wrId, Ibv.Opcode.ATOMIC_CMP_AND_SWP, List.of(into), 0, remoteAddress, rkey, null, compare,
                swap);
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
