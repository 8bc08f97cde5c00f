package org.jmca.progress;

import org.jmca.mca.McaException;

/**
 * What made a helper thread stop (a peer that died while the helper progressed, say), kept so
 * that the application's next MPI call fails with it instead of the failure vanishing with the
 * helper thread.
 */
final class HelperFailure {
    private volatile RuntimeException failure;

    void record(RuntimeException e) {
        failure = e;
    }

    boolean happened() {
        return failure != null;
    }

    /** Throws the recorded failure, if any, as the MPI call's error. */
    void rethrow() {
        RuntimeException e = failure;
        if (e != null) {
            throw new McaException("asynchronous progress stopped: " + e.getMessage(), e);
        }
    }
}
