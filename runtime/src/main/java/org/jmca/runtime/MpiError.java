package org.jmca.runtime;

/**
 * An MPI error found by the runtime: its error class ({@link ErrorClass}) and a message saying
 * what was wrong, with the offending value. Unchecked, as the runtime knows nothing of the mpi
 * package: the API turns it into the rank's {@code MPIException} and applies the error handler.
 */
public final class MpiError extends RuntimeException {
    private final int errorClass;

    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
