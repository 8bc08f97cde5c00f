package org.jmca.coll.sm;

import org.jmca.mca.coll.CollCommunicator;

/**
 * Tells a call made in program order from work that reuses an earlier call's tag (the rounds of
 * a non-blocking context agreement, started from progress callbacks): coll/sm numbers its calls
 * as they come, the same at every rank, so it serves only the first and hands the others down.
 */
final class CallOrder {
    private final CollCommunicator comm;
    private int lastTag;
    private boolean anyCall;

    CallOrder(CollCommunicator comm) {
        this.comm = comm;
    }

    /** Whether {@code tag} is a new call's; remembers it if so. */
    boolean fresh(int tag) {
        if (anyCall && !comm.drawnAfter(tag, lastTag)) {
            return false;
        }
        anyCall = true;
        lastTag = tag;
        return true;
    }
}
