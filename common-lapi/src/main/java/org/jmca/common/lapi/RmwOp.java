package org.jmca.common.lapi;

/** The read-modify-write operations of {@code LAPI_Rmw}, on 8 aligned bytes of the target. */
public enum RmwOp {
    /** Stores the operand. */
    SWAP,
    /** Stores the operand if the target holds the comparand. */
    COMPARE_AND_SWAP,
    /** Adds the operand. */
    FETCH_AND_ADD,
    /** Ors the operand in. */
    FETCH_AND_OR
}
