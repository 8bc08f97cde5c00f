package mpi;

/** A count that may exceed an int (MPI_Count), as {@link Status#getElementsX} gives it. */
public final class Count implements Comparable {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    /** Orders by the count; raw, as Open MPI's bindings declare it. */
    @Override
    public int compareTo(Object other) {
        return Long.compare(count, ((Count) other).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
