package mpi;

/**
 * What happens when an MPI call on a communicator fails: {@link MPI#ERRORS_ARE_FATAL} prints the
 * error and aborts the job; {@link MPI#ERRORS_RETURN} throws an {@link MPIException}.
 */
public final class Errhandler {
    private final String name;
    private final boolean fatal;

    Errhandler(String name, boolean fatal) {
        this.name = name;
        this.fatal = fatal;
    }

    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return name;
    }
}
