package org.jmca.mca.pml;

/**
 * The process's point-to-point layer: matching and protocols. Its send and receive operations
 * arrive with the point-to-point runtime.
 */
public interface PmlModule {

    /** Releases the module's resources; called once at finalize. */
    void finalizeModule();
}
