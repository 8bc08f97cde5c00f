package org.jmca.progress;

/** Who progresses communication while the application computes ({@code progress_polling_async}). */
public enum AsyncMode {
    /** Only the application thread, inside MPI calls. */
    OFF,
    /**
     * The baseline: a helper thread polls progress all the time under a lock that the application
     * thread also takes for every MPI call.
     */
    LOCK,
    /**
     * The lock-free asynchronous rendezvous: a helper sleeps until a peer rings this process's
     * doorbell for a rendezvous, then takes the ownership of progress with one compare-and-set.
     */
    LOCKFREE
}
