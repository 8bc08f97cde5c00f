package mpi;

import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jmca.mca.coll.CollFunction;

/** A communicator within one group: MPI.COMM_WORLD, MPI.COMM_SELF and those made from them. */
public class Intracomm extends Comm {

    Intracomm(String name) {
        super(name);
    }

    /** A new communicator with the same ranks and a context of its own. Collective. */
    public Intracomm dup() throws MPIException {
        return dupWithInfo(new Info());
    }

    /**
     * As {@link #dup()}, with hints: {@code ompi_comm_coll_preference} ("a,b,^c") prefers the
     * named coll components for the new communicator, in that order, and leaves out those with '^'.
     */
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return call("MPI_Comm_dup_with_info", rt -> {
            Intracomm copy = new Intracomm(this + "'s dup");
            copy.bind(rt, rt.agreeOnContext(this), jobRanks, info == null ? java.util.Map.of() : info.entries());
            copy.setErrhandler(errhandler());
            return copy;
        });
    }

    /**
     * Splits the communicator: ranks with the same {@code colour} form a new communicator, ordered
     * by {@code key} and then by their rank here. A rank with colour MPI.UNDEFINED gets null.
     * Collective.
     */
    public Intracomm split(int colour, int key) throws MPIException {
        return call("MPI_Comm_split", rt -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw new MPIException(MPI.ERR_ARG, "colour " + colour + " is negative (only MPI.UNDEFINED may be)");
            }
            int context = rt.agreeOnContext(this);
            int[] all = InternalCollectives.allgather(this, new int[] {colour, key});
            if (colour == MPI.UNDEFINED) {
                return null;
            }
            List<int[]> members = new ArrayList<>();
            for (int r = 0; r < size(); r++) {
                if (all[2 * r] == colour) {
                    members.add(new int[] {all[2 * r + 1], r});
                }
            }
            members.sort(Comparator.<int[]>comparingInt(m -> m[0]).thenComparingInt(m -> m[1]));
            int[] ranks = members.stream().mapToInt(m -> jobRanks[m[1]]).toArray();
            Intracomm part = new Intracomm(this + " split(" + colour + ")");
            part.bind(rt, context, ranks);
            part.setErrhandler(errhandler());
            return part;
        });
    }

    // ---- prefix reductions --------------------------------------------------------------------

    /** Rank r receives the reduction of the operands of ranks 0..r. */
    public void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Scan", CollFunction.SCAN, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    /** In place: the operand is in {@code buf}, which receives the result. */
    public void scan(Object buf, int count, Datatype type, Op op) throws MPIException {
        scan(null, buf, count, type, op);
    }

    public Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iscan", CollFunction.SCAN, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    public Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iScan(null, buf, count, type, op);
    }

    /** Rank r receives the reduction of the operands of ranks 0..r-1; rank 0's buffer is left as it is. */
    public void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Exscan", CollFunction.EXSCAN, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    /** In place. */
    public void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        exScan(null, buf, count, type, op);
    }

    public Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iexscan", CollFunction.EXSCAN, c ->
                reductionCall(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    public Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iExScan(null, buf, count, type, op);
    }
}
