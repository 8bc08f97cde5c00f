package org.jmca.mca.coll;

import java.util.Set;

/**
 * The collectives one component provides for one communicator. Every function starts an
 * operation and returns at once; the blocking MPI call waits for the request.
 */
public interface CollModule {

    /** The functions this module provides; the others stay with lower-priority modules. */
    Set<CollFunction> provides();

    /**
     * Called when the module is enabled for its communicator, with the functions as the modules
     * of lower priority left them, so the module can keep them as its fallback.
     */
    default void enable(CollTable below) {
    }

    /** Starts one of the functions this module {@linkplain #provides() provides}. */
    CollRequest start(CollFunction function, CollCall call);

    /**
     * Starts a call that the caller waits for at once and drops when it completes: the blocking
     * MPI call. The module may hand out the same request object again for its next blocking call,
     * so a blocking collective need not allocate one.
     */
    default CollRequest startBlocking(CollFunction function, CollCall call) {
        return start(function, call);
    }

    /** Called when the communicator is freed: the module releases what it holds for it. */
    default void free() {
    }

    /**
     * What serves {@code function} here, for the report of each communicator: the algorithm or
     * how it will be chosen ("ring", "fixed rules", "rules file tuning.conf").
     */
    default String describe(CollFunction function) {
        return "";
    }
}
