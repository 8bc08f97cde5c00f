package org.jmca.common.lapi;

/**
 * Runs at the target once all of an active message's data is in the buffer its header handler
 * chose; afterwards the target counter is incremented and the origin's completion counter follows.
 * In {@link LapiMode#INTERRUPT} it runs on the completion-handler thread, otherwise inside the
 * dispatcher.
 */
@FunctionalInterface
public interface CompletionHandler {
    void onComplete();
}
