package org.jmca.mca.btl;

import org.jmca.mca.McaException;

/** A peer went away while the job still needed it: its connection closed, or it stopped answering. */
public final class PeerFailureException extends McaException {
    private final int rank;

    public PeerFailureException(int rank, String message) {
        super(message);
        this.rank = rank;
    }

    /** The rank of the peer that failed. */
    public int rank() {
        return rank;
    }
}
