package org.jmca.mca.coll;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentMap;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A communicator as a coll module sees it: its ranks and point-to-point messages on the
 * communicator's collective context, which user messages never reach.
 *
 * <p>Ranks are ranks in this communicator. Messages between two ranks with the same tag arrive in
 * the order they were sent, and receives match in the order they were posted.
 *
 * <p>On an intercommunicator ({@link #isInter()}), {@link #rank()} and {@link #size()} describe
 * this process's group, and {@link #isend} and {@link #irecv} name the ranks of the other group
 * ({@link #remoteSize()} of them), as MPI's point-to-point calls do.
 */
public interface CollCommunicator {

    int rank();

    int size();

    /** Whether this is an intercommunicator between two groups. */
    default boolean isInter() {
        return false;
    }

    /** How many ranks {@link #isend} and {@link #irecv} name: the other group's on an intercommunicator, else {@link #size()}. */
    default int remoteSize() {
        return size();
    }

    /** The communicator's name, for reports: {@code MPI.COMM_WORLD}. */
    String name();

    /** The job rank (the rank in MPI.COMM_WORLD) of rank {@code rank} of this communicator. */
    default int jobRank(int rank) {
        return rank;
    }

    /** The host of rank {@code rank}, for components that treat ranks on one host together; "" if unknown. */
    default String host(int rank) {
        return "";
    }

    /**
     * A number that tells this communicator's traffic from every other's, the same at all its
     * ranks: for components that carry their own messages rather than the PML's.
     */
    default int contextId() {
        return 0;
    }

    /** Starts a send of {@code data} to {@code dest}; the data must stay untouched until it completes. */
    PmlRequest isend(MemorySegment data, int dest, int tag);

    /** Starts a receive from {@code source} into {@code buffer}. */
    PmlRequest irecv(MemorySegment buffer, int source, int tag);

    /**
     * The process's progress engine, for components that move messages of their own and must be
     * moved on between their calls too (a send that completed for its caller may still be
     * queued); null where there is none (a tool).
     */
    default ProgressEngine progressEngine() {
        return null;
    }

    /** The level of {@code coll_base_verbose}: 1 reports each communicator's table, 2 each call's algorithm. */
    default int verbosity() {
        return 0;
    }

    /** The job's identifier, the same at every rank, for components that must tell this job's traffic from another's. */
    default String jobId() {
        return "";
    }

    /** Writes a verbose line, prefixed with the process and communicator. */
    default void log(String line) {
    }

    /**
     * Whether {@code tag} was drawn for a call made after the call that drew {@code earlier}.
     * Calls draw their tags in program order, the same at every rank, but some work reuses the
     * tag of the call that began it (the rounds of a non-blocking context agreement, started
     * from progress callbacks): a component that orders calls as they arrive (coll/sm) hands
     * those to the module below it.
     */
    default boolean drawnAfter(int tag, int earlier) {
        return tag != earlier;
    }

    /**
     * A directory private to the job that the launcher removes when the job ends, for files
     * shared by the ranks of a host; null where no launcher manages one.
     */
    default Path sessionDirectory() {
        return null;
    }

    /** Whether some ranks belong to another job (connected to, spawned by or spawning this one). */
    default boolean spansJobs() {
        return false;
    }

    /**
     * Null unless the job's ranks are threads of this JVM; then one map that all of them share for
     * the job's lifetime, where a component's modules on different ranks find each other.
     */
    default ConcurrentMap<String, Object> threadJob() {
        return null;
    }

    /** Value of a per-communicator hint (an MPI info key), or null. */
    default String hint(String key) {
        return null;
    }
}
