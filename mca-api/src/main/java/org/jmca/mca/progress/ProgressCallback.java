package org.jmca.mca.progress;

/**
 * Work that the progress engine runs on each turn: poll a transport, advance a schedule.
 * Called on whichever thread drives progress at the time, never on two at once.
 */
@FunctionalInterface
public interface ProgressCallback {
    /** Does what is ready and returns how many events it handled (0 when idle). */
    int progress();
}
