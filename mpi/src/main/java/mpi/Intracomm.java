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

    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
    }

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    @Override
    Intracomm sameKind(String name) {
        return new Intracomm(name);
    }

    /**
     * The ranks of {@code group} (a subgroup of this communicator's) as a new communicator, in the
     * group's order; the other ranks get a null communicator ({@link #isNull()}). Collective.
     */
    public Intracomm create(Group group) throws MPIException {
        int[] members = group.jobRanks();
        int mine = -1;
        for (int i = 0; i < members.length; i++) {
            int member = members[i];
            if (java.util.Arrays.stream(jobRanks).noneMatch(j -> j == member)) {
                throw failure("MPI_Comm_create", new MPIException(MPI.ERR_GROUP, "the group has a process that is not"
                        + " in " + this + " (job rank " + member + ")"));
            }
            if (member == jobRanks[rank()]) {
                mine = i;
            }
        }
        return split(mine < 0 ? MPI.UNDEFINED : 0, mine);
    }

    /**
     * Splits the communicator by kind: with {@link Comm#TYPE_SHARED}, the ranks of each host form
     * a communicator, ordered by {@code key} and then by their rank here; MPI.UNDEFINED gives a
     * null communicator. Collective.
     */
    public Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED) {
            throw failure("MPI_Comm_split_type", new MPIException(MPI.ERR_ARG, "split type " + splitType
                    + " is neither Comm.TYPE_SHARED nor MPI.UNDEFINED"));
        }
        int colour = MPI.UNDEFINED;
        if (splitType == TYPE_SHARED) {
            String[] hosts = runtime().hosts;
            String mine = hosts[jobRanks[rank()]];
            colour = 0;
            while (!hosts[colour].equals(mine)) {
                colour++;
            }
        }
        return split(colour, key);
    }

    /**
     * Splits the communicator: ranks with the same {@code colour} form a new communicator, ordered
     * by {@code key} and then by their rank here. A rank with colour MPI.UNDEFINED gets a null
     * communicator ({@link #isNull()} true), as MPI_COMM_NULL. Collective.
     */
    public Intracomm split(int colour, int key) throws MPIException {
        return call("MPI_Comm_split", rt -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw new MPIException(MPI.ERR_ARG, "colour " + colour + " is negative (only MPI.UNDEFINED may be)");
            }
            int context = rt.agreeOnContext(this);
            int[] all = InternalCollectives.allgather(this, new int[] {colour, key});
            if (colour == MPI.UNDEFINED) {
                Intracomm none = new Intracomm("MPI_COMM_NULL");
                none.makeNull(errhandler());
                return none;
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
