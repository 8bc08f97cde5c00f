package org.jmca.osc;

/** What went wrong with a one-sided call; the MPI layer turns each into its MPI error class. */
public enum OscError {
    /** The call does not fit the window's synchronization state (MPI_ERR_RMA_SYNC). */
    SYNC,
    /** The target bytes are not all inside the target's window (MPI_ERR_RMA_RANGE). */
    RANGE,
    /** A negative displacement (MPI_ERR_DISP). */
    DISP,
    /** A rank that is not in the window's group (MPI_ERR_RANK). */
    RANK,
    /** A lock type that is neither exclusive nor shared (MPI_ERR_LOCKTYPE). */
    LOCKTYPE,
    /** The window has been freed (MPI_ERR_WIN). */
    WIN,
    /** An operation that one-sided accumulation does not take (MPI_ERR_OP). */
    OP,
    /** Counts that do not match (MPI_ERR_COUNT). */
    COUNT,
    /** A datatype the operation does not take (MPI_ERR_TYPE). */
    TYPE
}
