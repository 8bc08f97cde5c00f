package mpi;

/** The ranks a shift along one dimension reads from and writes to ({@link CartComm#shift}); MPI.PROC_NULL off an edge. */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(int source, int dest) {
        this.source = source;
        this.dest = dest;
    }

    public int getRankSource() {
        return source;
    }

    public int getRankDest() {
        return dest;
    }
}
