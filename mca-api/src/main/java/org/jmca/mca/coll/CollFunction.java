package org.jmca.mca.coll;

import java.util.Locale;

/** The collective operations a coll module may provide, each chosen per communicator. */
public enum CollFunction {
    ALLGATHER, ALLGATHERV, ALLREDUCE, ALLTOALL, ALLTOALLV, BARRIER, BCAST, EXSCAN, GATHER, GATHERV, REDUCE,
    REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, SCATTER, SCATTERV;

    /** Whether MPI defines the function on an intercommunicator: every one but the scans. */
    public boolean betweenGroups() {
        return this != SCAN && this != EXSCAN;
    }

    /** The name in reports and parameter names: {@code reduce_scatter_block}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
