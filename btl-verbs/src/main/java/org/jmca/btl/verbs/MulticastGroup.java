package org.jmca.btl.verbs;

/**
 * An InfiniBand multicast group as {@code ibv_attach_mcast} names it: the group's GID (two
 * big-endian halves) and its multicast LID (0xC000..0xFFFE). A UD datagram sent to the MLID,
 * with remote QP number {@link #QPN}, reaches every queue pair attached to the group.
 */
public record MulticastGroup(long gidHigh, long gidLow, int mlid) {
    /** The remote QP number of every datagram sent to a multicast group. */
    public static final int QPN = 0xFFFFFF;
    public static final int FIRST_MLID = 0xC000;
    public static final int LAST_MLID = 0xFFFE;
    /** The GID prefix of the groups {@link #of} names: ff12 (link-local, transient) and a JMCA signature. */
    private static final long JMCA_PREFIX = 0xff12_4a4d_0000_0000L;

    public MulticastGroup {
        if (!isMulticast(mlid)) {
            throw new IllegalArgumentException("multicast LID 0x" + Integer.toHexString(mlid) + " is outside 0x"
                    + Integer.toHexString(FIRST_MLID) + "..0x" + Integer.toHexString(LAST_MLID));
        }
    }

    /** The group a job's processes agree on by its MLID alone (its GID derived from it). */
    public static MulticastGroup of(int mlid) {
        return new MulticastGroup(JMCA_PREFIX, mlid, mlid);
    }

    public static boolean isMulticast(int lid) {
        return lid >= FIRST_MLID && lid <= LAST_MLID;
    }

    /** Where a datagram to this group goes. */
    public SendRequest.Destination destination(int qkey) {
        return new SendRequest.Destination(mlid, QPN, qkey);
    }
}
