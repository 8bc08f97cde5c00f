package mpi;

/**
 * A persistent request: made once by {@code sendInit}/{@code recvInit}, started many times.
 * Between a completion and the next {@link #start()} it is inactive: waiting on it returns at once.
 */
public final class Prequest extends Request {
    /** Starts one round of the operation. */
    interface Starter {
        Request start() throws MPIException;
    }

    private final Starter starter;

    Prequest(Comm comm, Starter starter) {
        super(comm, null, null);
        this.starter = starter;
    }

    /** Starts the operation again with the arguments given at its creation. */
    public void start() throws MPIException {
        Request started = starter.start();
        this.operation = started.operation;
        this.afterCompletion = started.afterCompletion;
    }

    public static void startAll(Prequest[] requests) throws MPIException {
        for (Prequest request : requests) {
            request.start();
        }
    }

    /** A persistent request stays usable: it only becomes inactive. */
    @Override
    public boolean isNull() {
        return false;
    }
}
