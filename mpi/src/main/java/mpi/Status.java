package mpi;

import org.jmca.runtime.ErrorClass;

/** What a receive (or a probe, or a wait) found. */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    private long byteCount;
    private boolean cancelled;
    private int index = MPI.UNDEFINED;

    Status(int source, int tag, int error, long byteCount, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.byteCount = byteCount;
        this.cancelled = cancelled;
    }

    /** The sender's rank in the communicator of the receive. */
    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    /** The error class of the operation: MPI.SUCCESS, or MPI.ERR_TRUNCATE for a truncated message. */
    public int getError() {
        return error;
    }

    /** Number of whole elements of {@code datatype} received, or MPI.UNDEFINED if not a whole number. */
    public int getCount(Datatype datatype) throws MPIException {
        int size = datatype.size();
        return byteCount % size == 0 ? Math.toIntExact(byteCount / size) : MPI.UNDEFINED;
    }

    /**
     * The number of basic elements received (a pair type's value and index are two), or
     * MPI.UNDEFINED if the bytes end inside one.
     */
    public int getElements(Datatype datatype) throws MPIException {
        long elements = getElementsX(datatype).getCount();
        return elements == MPI.UNDEFINED ? MPI.UNDEFINED : Math.toIntExact(elements);
    }

    /** The number of basic elements as a {@link Count}, for counts beyond an int; MPI.UNDEFINED as above. */
    public Count getElementsX(Datatype datatype) throws MPIException {
        long elements = datatype.layout().basicElements(byteCount);
        return new Count(elements < 0 ? MPI.UNDEFINED : elements);
    }

    /** For a generalized request's status: says whether it was cancelled. */
    public void setCancelled(boolean flag) throws MPIException {
        this.cancelled = flag;
    }

    /** For a generalized request's status: {@code count} elements of {@code datatype} arrived. */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        if (count.getCount() < 0) {
            throw new MPIException(MPI.ERR_COUNT, "a status cannot hold a negative count (" + count.getCount() + ")");
        }
        this.byteCount = datatype.layout().bytesOfBasicElements(count.getCount());
    }

    public boolean isCancelled() throws MPIException {
        return cancelled;
    }

    /** The index of the request this status belongs to in waitAny/testAny and friends. */
    public int getIndex() {
        return index;
    }

    Status withIndex(int i) {
        this.index = i;
        return this;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + org.jmca.runtime.ErrorClass.name(error) + ", bytes="
                + byteCount + (cancelled ? ", cancelled" : "") + "]";
    }
}
