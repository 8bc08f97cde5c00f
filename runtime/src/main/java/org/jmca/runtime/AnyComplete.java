package org.jmca.runtime;

import java.util.function.BooleanSupplier;
import org.jmca.mca.pml.PmlRequest;

/**
 * The condition of a wait for any of several requests (MPI_Waitany, MPI_Waitsome). A class of
 * the runtime rather than a lambda of the caller's: thread ranks each have their own copy of the
 * mpi package, and the shared wait loop would see a condition class per rank.
 */
public final class AnyComplete implements BooleanSupplier {
    private final PmlRequest[] requests;

    /** @param requests the operations to wait for; null entries are left out */
    public AnyComplete(PmlRequest[] requests) {
        this.requests = requests;
    }

    @Override
    public boolean getAsBoolean() {
        for (PmlRequest request : requests) {
            if (request != null && request.isComplete()) {
                return true;
            }
        }
        return false;
    }
}
