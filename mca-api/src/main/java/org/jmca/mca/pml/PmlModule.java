package org.jmca.mca.pml;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;

/**
 * The process's point-to-point layer: matches messages on (context, source, tag) and moves them
 * with the eager or rendezvous protocol over the BTLs.
 *
 * <p>Ranks are ranks in the job; contexts separate communicators. Messages from one sender in one
 * context are matched in the order they were sent (MPI's non-overtaking rule).
 *
 * <p>Threads: called by the thread that owns progress; nothing here blocks. Waiting is the
 * caller's, through the progress engine.
 */
public interface PmlModule {

    /** Matches any sender. */
    int ANY_SOURCE = -1;
    /** Matches any tag. */
    int ANY_TAG = -1;

    /**
     * Starts a send. The data must stay untouched until the request completes.
     *
     * @param data    the bytes of the message
     * @param dest    the receiver's rank in the job
     * @param tag     a tag of zero or more (negative tags are for JMCA's own traffic)
     * @param context the communicator's context
     */
    PmlRequest isend(MemorySegment data, int dest, int tag, int context, SendMode mode);

    /**
     * Starts a receive into {@code buffer}; a longer message is truncated and says so.
     *
     * @param source a rank in the job, or {@link #ANY_SOURCE}
     * @param tag    a tag, or {@link #ANY_TAG}
     */
    PmlRequest irecv(MemorySegment buffer, int source, int tag, int context);

    /** The status of a message that a receive would match now, without receiving it; null if none. */
    PmlStatus iprobe(int source, int tag, int context);

    /**
     * A matched probe: takes the message a receive would match now out of matching, so that no
     * other receive or probe can have it; null if there is none.
     */
    default PmlMessage improbe(int source, int tag, int context) {
        throw new UnsupportedOperationException("this PML has no matched probe");
    }

    /** Receives a message {@link #improbe} took into {@code buffer}; a longer one is truncated and says so. */
    default PmlRequest imrecv(PmlMessage message, MemorySegment buffer) {
        throw new UnsupportedOperationException("this PML has no matched probe");
    }

    /**
     * The BTL endpoint that carries this PML's traffic to job rank {@code rank}, for a layer that
     * moves data with the BTL's put and get itself (one-sided windows); null if there is none.
     */
    default BtlEndpoint endpoint(int rank) {
        return null;
    }

    /** True while a posted receive has not completed (asynchronous progress arms the doorbell then). */
    default boolean hasPendingReceives() {
        return false;
    }

    /** The module's counters. */
    default List<PerformanceVariable> performanceVariables() {
        return List.of();
    }

    /** True while accepted sends have fragments not yet handed to a BTL. */
    boolean hasPendingSends();

    /** The processes this one can address: the job's ranks, then those of bridged jobs. */
    int peerCount();

    /**
     * Makes another job's processes addressable ({@link org.jmca.mca.btl.Bridge}): they become
     * peers {@code peerCount() ..} in the order of the bridge's peers, whose ranks must be those.
     */
    default void addBridgedPeers(org.jmca.mca.btl.Bridge bridge) {
        throw new UnsupportedOperationException("this PML cannot reach processes of other jobs");
    }

    /** Releases the module's resources; called once at finalize. */
    void finalizeModule();
}
