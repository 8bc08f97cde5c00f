package org.jmca.mca.pml;

import java.util.function.BooleanSupplier;

/**
 * A send or receive in flight. Completion is published with a release store (or a volatile
 * write), so any thread may read {@link #isComplete()}; everything else belongs to the thread that owns progress.
 *
 * <p>A request is also the condition of its own completion, so waiting for it
 * ({@code progress.waitUntil(request)}) needs no lambda.
 */
public interface PmlRequest extends BooleanSupplier {

    boolean isComplete();

    /** Same as {@link #isComplete()}. */
    @Override
    default boolean getAsBoolean() {
        return isComplete();
    }

    /** The outcome; meaningful once {@link #isComplete()} is true. */
    PmlStatus status();

    /**
     * Cancels a receive that has not matched yet; it then completes with a cancelled status.
     *
     * @return true if the request was cancelled, false if it had matched already (or is a send)
     */
    boolean cancel();

    /** A request made of several: complete when every one is; its status says nothing. */
    static PmlRequest allOf(java.util.List<PmlRequest> parts) {
        java.util.List<PmlRequest> all = java.util.List.copyOf(parts);
        return new PmlRequest() {
            @Override
            public boolean isComplete() {
                for (PmlRequest part : all) {
                    if (!part.isComplete()) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public PmlStatus status() {
                return PmlStatus.EMPTY;
            }

            @Override
            public boolean cancel() {
                return false;
            }
        };
    }
}
