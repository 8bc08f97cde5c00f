package mpi;

import java.util.Map;
import org.jmca.runtime.DynamicProcesses;
import org.jmca.runtime.Intercommunicators;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.JobRuntime;
import org.jmca.runtime.Spawning;

/**
 * A communicator between two disjoint groups: {@link #getRank()}, {@link #getSize()} and
 * {@link #getGroup()} describe this process's (local) group, and point-to-point calls name the
 * ranks of the remote group.
 *
 * <p>Collectives go between the groups, as MPI 3.1 section 5.2.2 defines them, and coll/inter
 * serves them. In the rooted ones the root passes {@link MPI#ROOT}, the other ranks of its group
 * {@link MPI#PROC_NULL}, and the other group the root's rank in its group; the others exchange
 * data between the groups (allreduce gives each group the reduction of the other's operands).
 * Per-rank blocks are per rank of the remote group. In-place forms and scans are for
 * intracommunicators and fail with MPI_ERR_COMM.
 */
public class Intercomm extends Comm {
    private static final int TAG_LEADERS = -14;

    /** The intercommunicator to the parent job, for a job that spawn started; else null. */
    private static Intercomm parent;

    Intercomm(String name) {
        super(name);
    }

    /** The intercommunicator accept, connect or spawn made over {@code local}, with its error handler. */
    static Intercomm of(Comm local, JobRuntime rt, DynamicProcesses.Connected connected) throws MPIException {
        Intercomm inter = new Intercomm(connected.name());
        inter.bindInter(rt, connected.context(), local.core.jobRanks, connected.remote());
        inter.setErrhandler(local.errhandler());
        return inter;
    }

    /** A spawned job's MPI.Init: connects to the parent, which accepts in its spawn. */
    static void connectToParent(JobRuntime rt, String port) throws MPIException {
        parent = of(MPI.COMM_WORLD, rt, MPIException.mapped(() -> Spawning.connectToParent(rt, MPI.COMM_WORLD.core,
                port)));
    }

    /**
     * The intercommunicator to the job that spawned this one ({@link Intracomm#spawn}); for a job
     * started otherwise, a communicator whose isNull is true (MPI_COMM_NULL).
     */
    public static Intercomm getParent() throws MPIException {
        MPI.COMM_WORLD.runtime();
        if (parent != null) {
            return parent;
        }
        Intercomm none = new Intercomm("MPI_COMM_NULL");
        none.makeNull(MPI.COMM_WORLD.errhandler());
        return none;
    }

    public int getRemoteSize() throws MPIException {
        return call("MPI_Comm_remote_size", rt -> core.peers.length);
    }

    public Group getRemoteGroup() throws MPIException {
        return call("MPI_Comm_remote_group", rt -> new Group(core.peers, rt.job.rank()));
    }

    @Override
    public Intercomm dup() throws MPIException {
        return (Intercomm) super.dup();
    }

    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return (Intercomm) super.dupWithInfo(info);
    }

    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    @Override
    Intercomm sameKind(String name) {
        return new Intercomm(name);
    }

    @Override
    void bindDuplicate(JobRuntime rt, Comm copy, Map<String, String> hints) throws MPIException {
        copy.bindInter(rt, rt.agree(value -> largestOverBoth(rt, value)), core.jobRanks, core.peers);
    }

    /**
     * Both groups as one intracommunicator: the group whose leader passes {@code high} false
     * first (if both pass the same, an order both groups derive alike from their leaders' jobs
     * and ranks). Collective over both.
     */
    public Intracomm merge(boolean high) throws MPIException {
        return call("MPI_Intercomm_merge", rt -> {
            int context = rt.agree(value -> largestOverBoth(rt, value));
            // {high, leader's job, leader's rank in it}: the other group's leader's, then this one's
            int[] both = withRemote(rt, new int[] {high ? 1 : 0, rt.job.jobId().hashCode(), rt.job.rank()});
            boolean localHigh = both[3] == 1;
            boolean remoteHigh = both[0] == 1;
            boolean localFirst = localHigh != remoteHigh ? !localHigh
                    : both[4] != both[1] ? both[4] < both[1] : both[5] < both[2];
            int[] first = localFirst ? core.jobRanks : core.peers;
            int[] second = localFirst ? core.peers : core.jobRanks;
            int[] all = new int[first.length + second.length];
            System.arraycopy(first, 0, all, 0, first.length);
            System.arraycopy(second, 0, all, first.length, second.length);
            Intracomm merged = new Intracomm(this + " merged");
            merged.bind(rt, context, all);
            merged.setErrhandler(errhandler());
            return merged;
        });
    }

    /** The largest {@code value} over both groups. */
    private int largestOverBoth(JobRuntime rt, int value) throws MPIException {
        int local = InternalCollectives.allreduceMax(core, value);
        return Math.max(local, withRemote(rt, new int[] {local})[0]);
    }

    /**
     * The leaders (rank 0 of each group) swap their {@code mine}, then tell their groups: the
     * other group's, followed by this group's leader's.
     */
    private int[] withRemote(JobRuntime rt, int[] mine) throws MPIException {
        int[] both = null;
        if (rank() == 0) {
            int[] theirs = Intercommunicators.leadersExchange(rt, mine, core.peers[0], TAG_LEADERS, core.context + 1, mine.length);
            both = new int[2 * mine.length];
            System.arraycopy(theirs, 0, both, 0, mine.length);
            System.arraycopy(mine, 0, both, mine.length, mine.length);
        }
        return InternalCollectives.bcast(core, both, 0, 2 * mine.length);
    }
}
