package org.jmca.mca.pml;

/**
 * A send or receive in flight. Completion is published with a volatile write, so any thread may
 * read {@link #isComplete()}; everything else belongs to the thread that owns progress.
 */
public interface PmlRequest {

    boolean isComplete();

    /** The outcome; meaningful once {@link #isComplete()} is true. */
    PmlStatus status();

    /**
     * Cancels a receive that has not matched yet; it then completes with a cancelled status.
     *
     * @return true if the request was cancelled, false if it had matched already (or is a send)
     */
    boolean cancel();
}
