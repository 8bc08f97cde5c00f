package org.jmca.mca.coll;

/** The collective operations a coll module may provide, each chosen per communicator. */
public enum CollFunction {
    ALLGATHER, ALLGATHERV, ALLREDUCE, ALLTOALL, ALLTOALLV, ALLTOALLW, BARRIER, BCAST, EXSCAN, GATHER,
    GATHERV, REDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, SCATTER, SCATTERV
}
