package mpi;

import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.runtime.AnyComplete;
import org.jmca.runtime.JobRuntime;

/**
 * A non-blocking operation. Once a wait or a successful test has seen it complete, a request
 * becomes null ({@link #isNull()}), as MPI's handles become MPI_REQUEST_NULL; a persistent
 * request ({@link Prequest}) becomes inactive instead and may be started again.
 */
public class Request implements Freeable {
    final Comm comm;
    PmlRequest operation;
    Runnable afterCompletion;
    private Status completedStatus;

    Request(Comm comm, PmlRequest operation, Runnable afterCompletion) {
        this.comm = comm;
        this.operation = operation;
        this.afterCompletion = afterCompletion;
    }

    /** A request that is already complete with {@code status} (e.g. to or from MPI.PROC_NULL). */
    static Request completed(Comm comm, Status status) {
        Request request = new Request(comm, null, null);
        request.completedStatus = status;
        return request;
    }

    /** True for a request that completed and was collected, or was freed. */
    public boolean isNull() {
        return operation == null && completedStatus == null;
    }

    private boolean ready() {
        return operation == null || operation.isComplete();
    }

    /** Turns a completed operation into its status, runs what follows completion, and retires the request. */
    private Status collect() throws MPIException {
        Status status;
        if (operation == null) {
            status = completedStatus != null ? completedStatus : emptyStatus();
        } else {
            PmlStatus result = operation.status();
            if (afterCompletion != null) {
                afterCompletion.run();
            }
            status = comm.toStatus(result);
        }
        retire();
        try {
            return Comm.checkTruncation(status);
        } catch (MPIException e) {
            throw comm.handleError("MPI_Wait", e);
        }
    }

    /** What happens once a wait or test has collected the request. */
    void retire() {
        operation = null;
        completedStatus = null;
        afterCompletion = null;
    }

    private static Status emptyStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
    }

    /** Waits for completion and returns the status. */
    public Status waitStatus() throws MPIException {
        if (isNull()) {
            return emptyStatus();
        }
        if (operation != null) {
            // The PML request itself is the condition: a lambda here would be a class per
            // rank's loader, and thread ranks would each compile the shared wait loop for it.
            comm.runtime().progress.waitUntil(operation);
        }
        return collect();
    }

    /** Waits for completion. */
    public void waitFor() throws MPIException {
        waitStatus();
    }

    /** The status if the request has completed (collecting it), else null. */
    public Status testStatus() throws MPIException {
        if (isNull()) {
            return emptyStatus();
        }
        comm.runtime().progress.progress();
        return ready() ? collect() : null;
    }

    /** True if the request has completed (collecting it). */
    public boolean test() throws MPIException {
        return testStatus() != null;
    }

    /** The status if the request has completed, without collecting it; else null. Drives progress, so a loop on it ends. */
    public Status getStatus() throws MPIException {
        if (isNull()) {
            return emptyStatus();
        }
        comm.runtime().progress.progress();
        if (!ready()) {
            return null;
        }
        return operation == null ? completedStatus : comm.toStatus(operation.status());
    }

    /** Cancels a receive that has not matched yet; a wait then reports it as cancelled. */
    public void cancel() throws MPIException {
        if (operation != null) {
            operation.cancel();
        }
    }

    /** Lets the operation finish on its own; the request becomes null at once. */
    public void free() throws MPIException {
        retire();
    }

    // ---- many requests ----------------------------------------------------------------------

    private static JobRuntime runtimeOf(Request[] requests) throws MPIException {
        for (Request r : requests) {
            if (r != null && !r.isNull()) {
                return r.comm.runtime();
            }
        }
        return null;
    }

    /** Waits until one of the requests (one not null at least) has completed. */
    private static void awaitAny(JobRuntime runtime, Request[] requests) {
        if (firstReady(requests) != MPI.UNDEFINED) {
            return;
        }
        PmlRequest[] operations = new PmlRequest[requests.length];
        for (int i = 0; i < requests.length; i++) {
            operations[i] = requests[i] == null ? null : requests[i].operation;
        }
        runtime.progress.waitUntil(new AnyComplete(operations));
    }

    /** Waits for one request to complete; returns its status, with its index, or an empty status if all are null. */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        JobRuntime runtime = runtimeOf(requests);
        if (runtime == null) {
            return emptyStatus().withIndex(MPI.UNDEFINED);
        }
        awaitAny(runtime, requests);
        int found = firstReady(requests);
        return requests[found].collect().withIndex(found);
    }

    /** Waits for one request to complete and returns its index (MPI.UNDEFINED if all are null). */
    public static int waitAny(Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    /** Waits for every request; returns their statuses in order. */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        Status[] statuses = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            statuses[i] = (requests[i] == null ? emptyStatus() : requests[i].waitStatus()).withIndex(i);
        }
        return statuses;
    }

    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    /** Waits until at least one request completes; returns the statuses of all that have, or null if all are null. */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        JobRuntime runtime = runtimeOf(requests);
        if (runtime == null) {
            return null;
        }
        awaitAny(runtime, requests);
        return collectReady(requests);
    }

    public static int[] waitSome(Request[] requests) throws MPIException {
        Status[] statuses = waitSomeStatus(requests);
        return statuses == null ? null : indices(statuses);
    }

    /** The status of one completed request (collected, with its index), or null if none has completed. */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        JobRuntime runtime = runtimeOf(requests);
        if (runtime == null) {
            return emptyStatus().withIndex(MPI.UNDEFINED);
        }
        runtime.progress.progress();
        int i = firstReady(requests);
        return i == MPI.UNDEFINED ? null : requests[i].collect().withIndex(i);
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status status = testAnyStatus(requests);
        return status == null ? MPI.UNDEFINED : status.getIndex();
    }

    /** If every request has completed, their statuses (collected); else null and nothing is collected. */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        JobRuntime runtime = runtimeOf(requests);
        if (runtime != null) {
            runtime.progress.progress();
        }
        for (Request r : requests) {
            if (r != null && !r.isNull() && !r.ready()) {
                return null;
            }
        }
        return waitAllStatus(requests);
    }

    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    /** The statuses of the requests that have completed (collected); empty if none, null if all are null. */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        JobRuntime runtime = runtimeOf(requests);
        if (runtime == null) {
            return null;
        }
        runtime.progress.progress();
        return collectReady(requests);
    }

    public static int[] testSome(Request[] requests) throws MPIException {
        Status[] statuses = testSomeStatus(requests);
        return statuses == null ? null : indices(statuses);
    }

    private static int firstReady(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && !r.isNull() && r.ready()) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    private static Status[] collectReady(Request[] requests) throws MPIException {
        List<Status> statuses = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && !r.isNull() && r.ready()) {
                statuses.add(r.collect().withIndex(i));
            }
        }
        return statuses.toArray(Status[]::new);
    }

    private static int[] indices(Status[] statuses) {
        int[] indices = new int[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            indices[i] = statuses[i].getIndex();
        }
        return indices;
    }
}
