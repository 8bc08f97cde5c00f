package org.jmca.common.gm;

/** What a send callback is told: {@code gm_status_t}'s outcomes of a send. */
public enum GmStatus {
    SUCCESS,
    /** The target port was closed (its process finalized or died). */
    SEND_TARGET_PORT_CLOSED,
    /** The target refused a directed send into memory it has not registered. */
    SEND_REJECTED
}
