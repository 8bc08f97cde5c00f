package org.jmca.mca.pml;

/** How a send completes. Buffered and ready sends are standard sends to the PML. */
public enum SendMode {
    /** Completes when the data may be reused: copied out (eager) or delivered (rendezvous). */
    STANDARD,
    /** Completes only once the receiver has matched the message. */
    SYNCHRONOUS
}
