package org.jmca.mca.btl;

/**
 * One instance of a BTL: a network interface, a device port, the shared-memory segment. The
 * data path (send with an active-message tag, put, get, registration) arrives with the
 * point-to-point layer.
 */
public interface BtlModule {

    /** The component this module belongs to ("tcp"). */
    String componentName();

    BtlProperties properties();

    /** Releases the module's resources; called once at finalize. */
    void finalizeModule();
}
