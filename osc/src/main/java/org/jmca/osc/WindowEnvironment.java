package org.jmca.osc;

import org.jmca.mca.coll.Reduction;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.progress.ProgressEngine;

/**
 * What a window needs from its process, given by the MPI layer.
 *
 * @param rank           this rank in the window's communicator
 * @param jobRanks       the job rank of each rank of the communicator
 * @param pml            the process's point-to-point layer (and, through it, the BTL endpoints)
 * @param progress       the process's progress engine
 * @param controlContext a context of the window's own: its control messages
 * @param dataContext    another: data and replies
 * @param reductions     the predefined reductions, by the codes the MPI layer gives ops and types
 * @param counters       the process's window counters
 */
public record WindowEnvironment(int rank, int[] jobRanks, PmlModule pml, ProgressEngine progress, int controlContext,
                                int dataContext, Reductions reductions, OscCounters counters) {

    /** The predefined reductions of the MPI layer. */
    @FunctionalInterface
    public interface Reductions {
        /** Predefined op {@code op} on elements of type {@code type} (codes of the MPI layer). */
        Reduction of(int op, int type);
    }

    public WindowEnvironment {
        jobRanks = jobRanks.clone();
    }

    int size() {
        return jobRanks.length;
    }
}
