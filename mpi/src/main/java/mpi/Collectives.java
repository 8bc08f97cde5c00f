package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.progress.ProgressEngine;

/**
 * Turns the arguments of an MPI collective into a {@link CollCall} and runs it on the module
 * that serves the function on the communicator: to completion for the blocking call, or as a
 * {@link Request} advanced by waits, tests and a progress-engine callback for the i-form.
 *
 * <p>Counts are kept in elements of the call's datatype when the send and receive types are the
 * same, and in bytes when they differ (their type signatures must still match).
 */
final class Collectives {
    private final Comm comm;
    private final JobRuntime runtime;
    /** Work after the receive (unpacking booleans); made only when a call has some. */
    private List<Runnable> afterReceive;
    /** The element size the call counts in: the datatype's size, or 1 when types differ. */
    private int unit = 1;

    Collectives(Comm comm, JobRuntime runtime) {
        this.comm = comm;
        this.runtime = runtime;
    }

    /** Counts in elements of {@code type}: the one-type form, without the varargs form's array per call. */
    Collectives types(Datatype type) throws MPIException {
        unit = type != null ? type.size() : 1;
        return this;
    }

    /** Counts in elements of {@code types} if they are all the same, else in bytes. */
    Collectives types(Datatype... types) throws MPIException {
        Datatype first = null;
        boolean same = true;
        for (Datatype t : types) {
            if (t == null) {
                continue;
            }
            if (first == null) {
                first = t;
            } else if (t != first) {
                same = false;
            }
        }
        unit = first != null && same ? first.size() : 1;
        return this;
    }

    int unit() {
        return unit;
    }

    /** {@code count} elements of {@code type} in the call's unit. */
    int units(int count, Datatype type) throws MPIException {
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, "count " + count + " is negative");
        }
        try {
            return unit == 1 ? Math.multiplyExact(count, type.size()) : count;
        } catch (ArithmeticException e) {
            throw new MPIException(MPI.ERR_COUNT, count + " " + type + " is more than 2 GiB, the largest collective"
                    + " message JMCA takes when send and receive types differ");
        }
    }

    int[] units(int[] counts, Datatype type, String what) throws MPIException {
        if (counts == null || counts.length < comm.size()) {
            throw new MPIException(MPI.ERR_COUNT, "the " + what + " array has " + (counts == null ? "no"
                    : counts.length) + " entries; " + comm + " has " + comm.size() + " ranks");
        }
        int[] converted = new int[comm.size()];
        for (int r = 0; r < converted.length; r++) {
            converted[r] = units(counts[r], type);
        }
        return converted;
    }

    /** The end of the farthest block: the elements a vector buffer must hold. */
    static int span(int[] counts, int[] displs) {
        long end = 0;
        for (int r = 0; r < counts.length; r++) {
            end = Math.max(end, (long) displs[r] + counts[r]);
        }
        return (int) Math.min(end, Integer.MAX_VALUE);
    }

    /** The bytes of {@code elements} elements of {@code type} at the start of {@code buf}, to send. */
    MemorySegment send(Object buf, long elements, Datatype type) throws MPIException {
        return UserBuffer.of(buf, checkedCount(elements), type, false).segment();
    }

    /** The bytes of {@code elements} elements of {@code type} at the start of {@code buf}, to receive into. */
    MemorySegment recv(Object buf, long elements, Datatype type) throws MPIException {
        UserBuffer buffer = UserBuffer.of(buf, checkedCount(elements), type, true);
        if (buffer.afterReceive() != null) {
            after(buffer.afterReceive());
        }
        return buffer.segment();
    }

    /** A buffer read and written (in place): received into, so booleans are unpacked after. */
    MemorySegment inOut(Object buf, long elements, Datatype type) throws MPIException {
        if (buf instanceof boolean[]) {
            MemorySegment packed = send(buf, elements, type);
            UserBuffer target = UserBuffer.of(buf, checkedCount(elements), type, true);
            MemorySegment.copy(packed, 0, target.segment(), 0, packed.byteSize());
            after(target.afterReceive());
            return target.segment();
        }
        return recv(buf, elements, type);
    }

    private void after(Runnable step) {
        if (afterReceive == null) {
            afterReceive = new ArrayList<>();
        }
        afterReceive.add(step);
    }

    private static int checkedCount(long elements) throws MPIException {
        if (elements > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, elements + " elements do not fit one Java buffer");
        }
        return (int) elements;
    }

    /** MPI forbids aliased send and receive buffers: the result would depend on the algorithm. */
    static void distinct(Object sendbuf, Object recvbuf) throws MPIException {
        if (sendbuf != null && sendbuf == recvbuf) {
            throw new MPIException(MPI.ERR_BUFFER, "the send and the receive buffer are the same object;"
                    + " use the in-place form of the call (the one without a send buffer)");
        }
    }

    int root(int root) throws MPIException {
        if (root < 0 || root >= comm.size()) {
            throw new MPIException(MPI.ERR_ROOT, "invalid root " + root + ": " + comm + " has ranks 0.."
                    + (comm.size() - 1));
        }
        return root;
    }

    boolean isRoot(int root) {
        return comm.rank() == root;
    }

    Reduction op(Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, "the operation is null");
        }
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
        }
        return op.bind(type);
    }

    int tag() {
        return comm.collPort.nextTag();
    }

    /** Runs the call to completion. */
    void run(CollFunction function, CollCall call) {
        CollRequest request = comm.coll.module(function).startBlocking(function, call);
        if (!request.test()) {
            runtime.progress.waitUntil(request);
        }
        if (afterReceive != null) {
            afterReceive.forEach(Runnable::run);
        }
    }

    /** Leaves the library after a call begun by Comm's enterCollective. */
    void exit() {
        runtime.exit();
    }

    /** Starts the call; a progress callback advances it until it completes. */
    Request start(CollFunction function, CollCall call) {
        CollRequest request = comm.coll.module(function).start(function, call);
        ProgressEngine.Registration[] registration = new ProgressEngine.Registration[1];
        registration[0] = runtime.progress.register(() -> {
            if (request.test() && registration[0] != null) {
                registration[0].close();
            }
            return 0;
        }, ProgressEngine.Priority.LOW);
        List<Runnable> after = afterReceive == null ? List.of() : List.copyOf(afterReceive);
        return new Request(comm, new Completion(request, registration), () -> after.forEach(Runnable::run));
    }

    /** A collective request as the point-to-point requests' completion. */
    private record Completion(CollRequest request, ProgressEngine.Registration[] registration) implements PmlRequest {
        @Override
        public boolean isComplete() {
            boolean done = request.test();
            if (done && registration[0] != null) {
                registration[0].close();
            }
            return done;
        }

        @Override
        public PmlStatus status() {
            return PmlStatus.EMPTY;
        }

        @Override
        public boolean cancel() {
            return false;
        }
    }
}
