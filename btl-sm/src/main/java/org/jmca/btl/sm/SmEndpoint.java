package org.jmca.btl.sm;

import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;

/** The way to one peer on this host: the ring this process writes in the peer's segment, its doorbell and its pid. */
final class SmEndpoint implements BtlEndpoint {
    private final int rank;
    private final SmBtlModule module;
    final SharedRing outgoing;
    final FutexDoorbell doorbell;
    final long pid;

    SmEndpoint(int rank, SmBtlModule module, SharedRing outgoing, FutexDoorbell doorbell, long pid) {
        this.rank = rank;
        this.module = module;
        this.outgoing = outgoing;
        this.doorbell = doorbell;
        this.pid = pid;
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
