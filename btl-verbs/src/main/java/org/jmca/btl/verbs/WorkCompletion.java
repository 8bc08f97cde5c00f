package org.jmca.btl.verbs;

/**
 * {@code struct ibv_wc}: what became of one work request. For receives, {@code byteLength} counts
 * what was placed (the 40-byte GRH included on UD), {@code srcQp} and {@code slid} name the sender.
 */
public record WorkCompletion(long wrId, Ibv.WcStatus status, Ibv.WcOpcode opcode, int qpNum, int byteLength,
                             boolean withImm, int immData, int srcQp, int slid, boolean withGrh) {
    public boolean ok() {
        return status == Ibv.WcStatus.SUCCESS;
    }
}
