package org.jmca.runtime;

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
 * One collective call on a communicator: its MPI arguments turned into a {@link CollCall}, run on
 * the module that serves the function - to completion for the blocking call, or started for the
 * i-form. A null send buffer is MPI_IN_PLACE.
 *
 * <p>Counts are kept in elements of the call's datatype when the send and receive types are the
 * same, and in bytes when they differ (their type signatures must still match).
 *
 * <p>On an intercommunicator the calls are MPI's between two groups ({@link CollCall} says how they
 * are laid out): per-rank blocks are per rank of the other group, the root is MPI.ROOT, MPI.PROC_NULL
 * or a rank of the other group, and the in-place forms are errors of class MPI_ERR_COMM.
 */
public final class Collectives {
    private final Communicator comm;
    private final JobRuntime runtime;
    private final String operation;
    /** Whether the call goes between the two groups of an intercommunicator. */
    private final boolean inter;
    /** Blocks per rank-indexed buffer: one per rank, of the other group on an intercommunicator. */
    private final int blocks;
    /** Work after the receive (unpacking booleans); made only when a call has some. */
    private List<Runnable> afterReceive;
    /** The element size the call counts in: the datatype's size, or 1 when types differ. */
    private int unit = 1;

    /** The helper of one call, {@code operation} (MPI_Bcast), on {@code comm}. */
    public Collectives(Communicator comm, String operation) {
        this.comm = comm;
        this.runtime = comm.runtime;
        this.operation = operation;
        this.inter = comm.inter();
        this.blocks = comm.peers.length;
    }

    // ---- running -----------------------------------------------------------------------------

    /** Runs the call to completion. */
    public void run(CollFunction function, CollCall call) {
        CollRequest request = comm.coll().module(function).startBlocking(function, call);
        if (!request.test()) {
            runtime.progress.waitUntil(request);
        }
        if (afterReceive != null) {
            afterReceive.forEach(Runnable::run);
        }
    }

    /** Enters the library (for a blocking call; {@link #exit()} after). */
    public void enter() {
        runtime.enter();
    }

    public void exit() {
        runtime.exit();
    }

    /**
     * Starts the call; a progress callback advances it until it completes. Returns it as the
     * point-to-point requests' completion, and what to do once it completed (or null).
     */
    public Started start(CollFunction function, CollCall call) {
        CollRequest request = comm.coll().module(function).start(function, call);
        ProgressEngine.Registration[] registration = new ProgressEngine.Registration[1];
        registration[0] = runtime.progress.register(() -> {
            if (request.test() && registration[0] != null) {
                registration[0].close();
            }
            return 0;
        }, ProgressEngine.Priority.LOW);
        List<Runnable> after = afterReceive == null ? List.of() : List.copyOf(afterReceive);
        return new Started(new Completion(request, registration), after.isEmpty() ? null : () -> after.forEach(Runnable::run));
    }

    /** A started collective: its request as a point-to-point one, and what follows its completion, or null. */
    public record Started(PmlRequest request, Runnable afterCompletion) {
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

    // ---- the calls ---------------------------------------------------------------------------

    public CollCall barrier() {
        return call(null, null, 0, 1, 0, null);
    }

    public CollCall bcast(Object buf, int count, Type type, int root) {
        types(type);
        root(root);
        if (takesNoPart(root)) {
            return none(root);
        }
        MemorySegment data = isRoot(root) ? send(buf, count, type) : recv(buf, count, type);
        return call(null, data, count, unit, root, null);
    }

    /** Gather in place: the root's block is in {@code buf}; the others send from it. */
    public CollCall inPlaceGather(Object buf, int count, Type type, int root) {
        withinOneGroup();
        return isRoot(root) ? gather(null, count, type, buf, count, type, root)
                : gather(buf, count, type, null, count, type, root);
    }

    public CollCall gather(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int recvcount, Type recvtype,
                           int root) {
        distinct(sendbuf, recvbuf);
        root(root);
        if (takesNoPart(root)) {
            return none(root);
        }
        boolean isRoot = isRoot(root);
        boolean sends = inter ? !isRoot : !(isRoot && sendbuf == null);
        types(sends ? sendtype : recvtype, isRoot ? recvtype : null);
        int block = sends ? units(sendcount, sendtype) : units(recvcount, recvtype);
        MemorySegment send = sends ? send(sendbuf, sendcount, sendtype) : null;
        MemorySegment recv = null;
        if (isRoot) {
            checkSignature(block, recvcount, recvtype, "receive");
            recv = recv(recvbuf, (long) recvcount * blocks, recvtype);
        }
        return call(send, recv, block, unit, root, null);
    }

    public CollCall gatherv(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int[] recvcount,
                            int[] displs, Type recvtype, int root) {
        distinct(sendbuf, recvbuf);
        root(root);
        if (takesNoPart(root)) {
            return none(root);
        }
        boolean isRoot = isRoot(root);
        boolean sends = inter ? !isRoot : !(isRoot && sendbuf == null);
        types(sends ? sendtype : null, isRoot ? recvtype : null);
        int[] counts = null;
        int[] ds = null;
        MemorySegment recv = null;
        if (isRoot) {
            counts = units(recvcount, recvtype, "receive counts", blocks);
            ds = units(displs, recvtype, "displacements", blocks);
            recv = recv(recvbuf, span(recvcount, displs), recvtype);
        }
        int own = sends ? units(sendcount, sendtype) : inter ? 0 : counts[comm.rank];
        MemorySegment send = sends ? send(sendbuf, sendcount, sendtype) : null;
        if (isRoot && sends && own != counts[comm.rank]) {
            checkSignature(counts[comm.rank], sendcount, sendtype, "send");
        }
        return new CollCall(send, recv, own, null, null, counts, ds, unit, root, null, comm.port.nextTag());
    }

    /** Scatter in place: the root keeps its block in {@code buf}; the others receive into it. */
    public CollCall inPlaceScatter(Object buf, int count, Type type, int root) {
        withinOneGroup();
        return isRoot(root) ? scatter(buf, count, type, null, count, type, root)
                : scatter(null, count, type, buf, count, type, root);
    }

    public CollCall scatter(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int recvcount, Type recvtype,
                            int root) {
        distinct(sendbuf, recvbuf);
        root(root);
        if (takesNoPart(root)) {
            return none(root);
        }
        boolean isRoot = isRoot(root);
        boolean receives = inter ? !isRoot : !(isRoot && recvbuf == null);
        types(isRoot ? sendtype : null, receives ? recvtype : null);
        int block = receives ? units(recvcount, recvtype) : units(sendcount, sendtype);
        MemorySegment send = null;
        if (isRoot) {
            checkSignature(block, sendcount, sendtype, "send");
            send = send(sendbuf, (long) sendcount * blocks, sendtype);
        }
        MemorySegment recv = receives ? recv(recvbuf, recvcount, recvtype) : null;
        return call(send, recv, block, unit, root, null);
    }

    public CollCall scatterv(Object sendbuf, int[] sendcount, int[] displs, Type sendtype, Object recvbuf,
                             int recvcount, Type recvtype, int root) {
        distinct(sendbuf, recvbuf);
        root(root);
        if (takesNoPart(root)) {
            return none(root);
        }
        boolean isRoot = isRoot(root);
        boolean receives = inter ? !isRoot : !(isRoot && recvbuf == null);
        types(isRoot ? sendtype : null, receives ? recvtype : null);
        int[] counts = null;
        int[] ds = null;
        MemorySegment send = null;
        if (isRoot) {
            counts = units(sendcount, sendtype, "send counts", blocks);
            ds = units(displs, sendtype, "displacements", blocks);
            send = send(sendbuf, span(sendcount, displs), sendtype);
        }
        int own = receives ? units(recvcount, recvtype) : inter ? 0 : counts[comm.rank];
        if (isRoot && receives && own != counts[comm.rank]) {
            checkSignature(counts[comm.rank], recvcount, recvtype, "receive");
        }
        MemorySegment recv = receives ? recv(recvbuf, recvcount, recvtype) : null;
        return new CollCall(send, recv, own, null, null, counts, ds, unit, root, null, comm.port.nextTag());
    }

    public CollCall allGather(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int recvcount,
                              Type recvtype) {
        distinct(sendbuf, recvbuf);
        notInPlace(sendbuf);
        types(sendbuf == null ? null : sendtype, recvtype);
        int block = units(recvcount, recvtype);
        MemorySegment send = null;
        if (sendbuf != null) {
            if (!inter) { // between groups, the other group's blocks are what this one sends
                checkSignature(block, sendcount, sendtype, "send");
            }
            send = send(sendbuf, sendcount, sendtype);
        }
        long all = (long) recvcount * blocks;
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, all, recvtype) : recv(recvbuf, all, recvtype);
        return call(send, recv, block, unit, 0, null);
    }

    public CollCall allGatherv(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int[] recvcount,
                               int[] displs, Type recvtype) {
        distinct(sendbuf, recvbuf);
        notInPlace(sendbuf);
        types(sendbuf == null ? null : sendtype, recvtype);
        int[] counts = units(recvcount, recvtype, "receive counts", blocks);
        int[] ds = units(displs, recvtype, "displacements", blocks);
        int own = inter ? units(sendcount, sendtype) : counts[comm.rank];
        MemorySegment send = null;
        if (sendbuf != null) {
            checkSignature(own, sendcount, sendtype, "send");
            send = send(sendbuf, sendcount, sendtype);
        }
        long span = span(recvcount, displs);
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, span, recvtype) : recv(recvbuf, span, recvtype);
        return new CollCall(send, recv, own, null, null, counts, ds, unit, 0, null, comm.port.nextTag());
    }

    public CollCall allToAll(Object sendbuf, int sendcount, Type sendtype, Object recvbuf, int recvcount,
                             Type recvtype) {
        distinct(sendbuf, recvbuf);
        notInPlace(sendbuf);
        types(sendbuf == null ? null : sendtype, recvtype);
        int block = units(recvcount, recvtype);
        MemorySegment send = null;
        if (sendbuf != null) {
            if (!inter) {
                checkSignature(block, sendcount, sendtype, "send");
            }
            send = send(sendbuf, (long) sendcount * blocks, sendtype);
        }
        long all = (long) recvcount * blocks;
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, all, recvtype) : recv(recvbuf, all, recvtype);
        return call(send, recv, block, unit, 0, null);
    }

    public CollCall allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Type sendtype, Object recvbuf,
                              int[] recvcount, int[] rdispls, Type recvtype) {
        distinct(sendbuf, recvbuf);
        notInPlace(sendbuf);
        types(sendbuf == null ? null : sendtype, recvtype);
        int[] counts = units(recvcount, recvtype, "receive counts", blocks);
        int[] ds = units(rdispls, recvtype, "receive displacements", blocks);
        int[] sendCounts = null;
        int[] sendDispls = null;
        MemorySegment send = null;
        if (sendbuf != null) {
            sendCounts = units(sendcount, sendtype, "send counts", blocks);
            sendDispls = units(sdispls, sendtype, "send displacements", blocks);
            send = send(sendbuf, span(sendcount, sdispls), sendtype);
        }
        long span = span(recvcount, rdispls);
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, span, recvtype) : recv(recvbuf, span, recvtype);
        return new CollCall(send, recv, 0, sendCounts, sendDispls, counts, ds, unit, 0, null, comm.port.nextTag());
    }

    /**
     * Reduce in place: the root's operand is in {@code buf}, which receives the result. Checked
     * first as {@link #reduction} is.
     */
    public CollCall inPlaceReduce(Object buf, int count, Type type, Reduction reduction, int root) {
        withinOneGroup();
        return isRoot(root) ? reduction(null, buf, count, type, reduction, root, true)
                : reduction(buf, null, count, type, reduction, root, true);
    }

    /**
     * A reduction's call (reduce, allreduce, scan, exscan): operands and result of {@code count}
     * elements (for reduce, the result only at the root). Reductions always count in elements of
     * the primitive the operation reads ({@code reduction} is bound to it): a derived type's
     * operands are its primitives, packed one after another. The caller has made
     * {@link #checkReduction}'s checks, before it bound the operation.
     */
    public CollCall reduction(Object sendbuf, Object recvbuf, int count, Type type, Reduction reduction, int root,
                              boolean rooted) {
        boolean receives = !rooted || isRoot(root);
        boolean sends = !inter || !rooted || root >= 0; // between groups, only the root's other group sends
        MemorySegment send = sendbuf == null || !sends ? null : send(sendbuf, count, type);
        MemorySegment recv = !receives ? null
                : sendbuf == null && !inter ? inOut(recvbuf, count, type) : recv(recvbuf, count, type);
        if (!type.isDerived() || !reduction.elementwise()) { // a user's function sees whole elements
            return call(send, recv, count, type.size(), root, reduction);
        }
        int primitive = type.primitiveSize();
        return call(send, recv, Math.multiplyExact(count, type.size() / primitive), primitive, root, reduction);
    }

    /**
     * What a reduction checks before its operation is bound, in MPI's order: distinct buffers, the
     * type, the root when it has one. The caller binds the operation between this and the call.
     */
    public void checkReduction(Object sendbuf, Object recvbuf, Type type, int root, boolean rooted) {
        distinct(sendbuf, recvbuf);
        types(type);
        if (rooted) {
            root(root);
        } else {
            notInPlace(sendbuf);
        }
    }

    /** {@link #checkReduction}'s counterpart for reduce-scatter: its receive counts too. */
    public void checkReduceScatter(Object sendbuf, Object recvbuf, Type type, int[] recvcounts) {
        checkReduction(sendbuf, recvbuf, type, 0, false);
        units(recvcounts, type, "receive counts", comm.size());
    }

    public CollCall reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Type type, Reduction reduction) {
        distinct(sendbuf, recvbuf);
        types(type);
        int[] counts = units(recvcounts, type, "receive counts", comm.size());
        long total = 0;
        for (int c : counts) {
            total += c;
        }
        MemorySegment send = sendbuf == null ? null : send(sendbuf, total, type);
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, total, type) : recv(recvbuf, counts[comm.rank], type);
        return new CollCall(send, recv, counts[comm.rank], null, null, counts, null, type.size(), 0, reduction,
                comm.port.nextTag());
    }

    public CollCall reduceScatterBlock(Object sendbuf, Object recvbuf, int count, Type type, Reduction reduction) {
        distinct(sendbuf, recvbuf);
        types(type);
        long total = (long) count * comm.size();
        MemorySegment send = sendbuf == null ? null : send(sendbuf, total, type);
        MemorySegment recv = sendbuf == null ? inOut(recvbuf, total, type) : recv(recvbuf, count, type);
        return call(send, recv, count, type.size(), 0, reduction);
    }

    // ---- arguments ---------------------------------------------------------------------------

    private CollCall call(MemorySegment send, MemorySegment recv, int count, int unit, int root, Reduction op) {
        return CollCall.of(send, recv, count, unit, root, op, comm.port.nextTag());
    }

    /** Counts in elements of {@code type}: the one-type form. */
    private void types(Type type) {
        unit = type != null ? type.size() : 1;
    }

    /** Counts in elements of {@code a} and {@code b} if they are the same (or one is null), else in bytes. */
    private void types(Type a, Type b) {
        Type first = a != null ? a : b;
        unit = first != null && (a == null || b == null || a == b) ? first.size() : 1;
    }

    /** {@code count} elements of {@code type} in the call's unit. */
    private int units(int count, Type type) {
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "count " + count + " is negative");
        }
        try {
            return unit == 1 ? Math.multiplyExact(count, type.size()) : count;
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.COUNT, count + " " + type + " is more than 2 GiB, the largest collective"
                    + " message JMCA takes when send and receive types differ");
        }
    }

    /** {@code counts}, which has an entry for each of {@code n} ranks, in the call's unit. */
    private int[] units(int[] counts, Type type, String what, int n) {
        if (counts == null || counts.length < n) {
            throw new MpiError(ErrorClass.COUNT, "the " + what + " array has " + (counts == null ? "no"
                    : counts.length) + " entries; " + comm + " has " + n + (n == blocks && inter ? " remote" : "")
                    + " ranks");
        }
        int[] converted = new int[n];
        for (int r = 0; r < converted.length; r++) {
            converted[r] = units(counts[r], type);
        }
        return converted;
    }

    /** The root's per-rank count must describe as many bytes as every rank's block. */
    private void checkSignature(int blockUnits, int count, Type type, String side) {
        if (units(count, type) != blockUnits) {
            throw new MpiError(ErrorClass.TRUNCATE, "the " + side + " count " + count + " of " + type
                    + " does not match the " + blockUnits * (long) unit + " bytes per rank on the other side");
        }
    }

    /** The end of the farthest block: the elements a vector buffer must hold. */
    public static int span(int[] counts, int[] displs) {
        long end = 0;
        for (int r = 0; r < counts.length; r++) {
            end = Math.max(end, (long) displs[r] + counts[r]);
        }
        return (int) Math.min(end, Integer.MAX_VALUE);
    }

    /** The bytes of {@code elements} elements of {@code type} at the start of {@code buf}, to send. */
    private MemorySegment send(Object buf, long elements, Type type) {
        return UserBuffer.of(buf, checkedCount(elements), type, false).segment();
    }

    /** The bytes of {@code elements} elements of {@code type} at the start of {@code buf}, to receive into. */
    private MemorySegment recv(Object buf, long elements, Type type) {
        UserBuffer buffer = UserBuffer.of(buf, checkedCount(elements), type, true);
        if (buffer.afterReceive() != null) {
            after(buffer.afterReceive());
        }
        return buffer.segment();
    }

    /** A buffer read and written (in place): received into, so booleans are unpacked after. */
    private MemorySegment inOut(Object buf, long elements, Type type) {
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

    private static int checkedCount(long elements) {
        if (elements > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.COUNT, elements + " elements do not fit one Java buffer");
        }
        return (int) elements;
    }

    /** MPI forbids aliased send and receive buffers: the result would depend on the algorithm. */
    public static void distinct(Object sendbuf, Object recvbuf) {
        if (sendbuf != null && sendbuf == recvbuf) {
            throw new MpiError(ErrorClass.BUFFER, "the send and the receive buffer are the same object;"
                    + " use the in-place form of the call (the one without a send buffer)");
        }
    }

    private void root(int root) {
        if (inter) {
            if (root != CollCall.ROOT && root != CollCall.PROC_NULL && (root < 0 || root >= blocks)) {
                throw new MpiError(ErrorClass.ROOT, "invalid root " + root + " on the intercommunicator " + comm
                        + ": the root passes MPI.ROOT, the other ranks of its group MPI.PROC_NULL, and the other"
                        + " group the root's rank in its group (0.." + (blocks - 1) + ")");
            }
            return;
        }
        if (root < 0 || root >= comm.size()) {
            throw new MpiError(ErrorClass.ROOT, "invalid root " + root + ": " + comm + " has ranks 0.."
                    + (comm.size() - 1));
        }
    }

    private boolean isRoot(int root) {
        return inter ? root == CollCall.ROOT : comm.rank == root;
    }

    /** Whether this rank takes no part in a rooted call: between groups, the root's group's other ranks. */
    private boolean takesNoPart(int root) {
        return inter && root == CollCall.PROC_NULL;
    }

    /** The call of a rank that takes no part. */
    private CollCall none(int root) {
        return call(null, null, 0, 1, root, null);
    }

    /** A null send buffer (MPI_IN_PLACE) is not defined between two groups. */
    private void notInPlace(Object sendbuf) {
        if (sendbuf == null) {
            withinOneGroup();
        }
    }

    /** The in-place forms work within one group only. */
    private void withinOneGroup() {
        if (inter) {
            throw new MpiError(ErrorClass.COMM, operation + " in this form is not defined on an intercommunicator"
                    + " (in-place forms and scans work within one group)");
        }
    }
}
