package org.jmca.common.lapi;

/** How a LAPI context's dispatcher is progressed (LAPI_Senv INTERRUPT_SET, and the study's wish). */
public enum LapiMode {
    /**
     * Progress only inside calls (each takes the dispatcher lock and runs the dispatcher), plus a
     * retransmission/timeout tick.
     */
    POLLING,
    /**
     * As LAPI's interrupt mode: a notification thread, woken by arrivals (coalesced), runs the
     * dispatcher under the one global lock that every call also takes, and gives up when a call
     * holds it; a completion-handler thread runs the active messages' completion handlers.
     */
    INTERRUPT,
    /**
     * The study's wish: calls queue their work without the global lock and run the dispatcher
     * only when it is free; the notification thread makes the rest of the progress, handing the
     * dispatcher over lock-free.
     */
    LOCKFREE
}
