package mpi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A communicator within one group: MPI.COMM_WORLD, MPI.COMM_SELF and those made from them. */
public class Intracomm extends Comm {

    Intracomm(String name) {
        super(name);
    }

    /** A new communicator with the same ranks and a context of its own. Collective. */
    public Intracomm dup() throws MPIException {
        return call("MPI_Comm_dup", rt -> {
            Intracomm copy = new Intracomm(this + "'s dup");
            copy.bind(rt, rt.agreeOnContext(this), jobRanks);
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
}
