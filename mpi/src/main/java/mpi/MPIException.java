package mpi;

import org.jmca.runtime.ErrorClass;
import org.jmca.runtime.MpiError;

/**
 * An MPI error: an error class (one of {@code MPI.ERR_*}) and a message saying what was wrong,
 * with the offending value. Thrown under {@link MPI#ERRORS_RETURN}; under
 * {@link MPI#ERRORS_ARE_FATAL} (the default) the same message is printed and the job aborted.
 */
public final class MPIException extends Exception {
    private final int errorClass;

    public MPIException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MPIException(String message) {
        this(MPI.ERR_OTHER, message);
    }

    public MPIException(Throwable cause) {
        super(cause.getMessage(), cause);
        this.errorClass = MPI.ERR_OTHER;
    }

    /** The error code; JMCA's codes are the error classes. */
    public int getErrorCode() {
        return errorClass;
    }

    public int getErrorClass() {
        return errorClass;
    }

    /** The message, as {@code MPI_Error_string} would give it. */
    public String getErrorString() {
        return getMessage();
    }

    /** A call into the runtime, whose errors are {@link MpiError}s. */
    interface RuntimeCall<T> {
        T run();
    }

    /** {@code call}'s result, its MpiError as the MPIException of the same class and message. */
    static <T> T mapped(RuntimeCall<T> call) throws MPIException {
        try {
            return call.run();
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    /** A call of the mpi package made from the runtime: its MPIException as the runtime's MpiError. */
    interface ApiCall<T> {
        T run() throws MPIException;
    }

    static <T> T unchecked(ApiCall<T> call) {
        try {
            return call.run();
        } catch (MPIException e) {
            throw new MpiError(e.getErrorClass(), e.getMessage());
        }
    }

    /** The error class's name: "MPI_ERR_RANK". */
    public String getErrorClassName() {
        return org.jmca.runtime.ErrorClass.name(errorClass);
    }
}
