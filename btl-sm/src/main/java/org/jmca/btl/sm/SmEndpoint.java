package org.jmca.btl.sm;

import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;

/**
 * The way to one peer on this host: the peer's segment, the ring this process writes in it, its
 * doorbell and its pid.
 */
final class SmEndpoint implements BtlEndpoint {
    private final int rank;
    private final SmBtlModule module;
    final SmSegment segment;
    final SharedRing outgoing;
    final FutexDoorbell doorbell;
    final long pid;
    /** Sends refused so far (its ring full); every 4096th asks whether the peer still lives (no cost on a send that goes). */
    int refusals;

    SmEndpoint(int rank, SmBtlModule module, SmSegment segment, int senderRank) {
        this.rank = rank;
        this.module = module;
        this.segment = segment;
        this.outgoing = segment.ring(senderRank);
        this.doorbell = segment.peersDoorbell();
        this.pid = segment.ownerPid;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public BtlModule module() {
        return module;
    }
}
