package org.jmca.mca.btl;

/** A module's way to one peer, made by {@link BtlModule#addPeers}. */
public interface BtlEndpoint {

    /** The peer's rank in the job. */
    int rank();

    /** The module this endpoint belongs to. */
    BtlModule module();
}
