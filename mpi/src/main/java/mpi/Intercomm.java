package mpi;

import java.nio.Buffer;
import java.util.Map;
import org.jmca.runtime.DynamicProcesses;
import org.jmca.runtime.Intercommunicators;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.JobRuntime;
import org.jmca.runtime.PointToPointCollectives.Blocks;
import org.jmca.runtime.PointToPointCollectives;
import org.jmca.runtime.Spawning;

/**
 * A communicator between two disjoint groups: {@link #getRank()}, {@link #getSize()} and
 * {@link #getGroup()} describe this process's (local) group, and point-to-point calls name the
 * ranks of the remote group.
 *
 * <p>Collectives go between the groups, as MPI 3.1 section 5.2.2 defines them. In the rooted
 * ones the root passes {@link MPI#ROOT}, the other ranks of its group {@link MPI#PROC_NULL}, and
 * the other group the root's rank in its group; the others exchange data between the groups
 * (allreduce gives each group the reduction of the other's operands). Each is linear: every
 * process sends to and receives from the remote processes directly, on the communicator's
 * collective context; a reduction folds the remote operands in rank order. In-place forms and
 * scans are for intracommunicators and fail with MPI_ERR_COMM.
 */
public class Intercomm extends Comm {
    private static final int[] NONE = {};
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

    // ---- collectives ------------------------------------------------------------------------

    private int[] everyRemote() {
        int[] all = new int[core.peers.length];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        return all;
    }

    /**
     * A rooted collective: the root's side goes to (or comes from) every remote rank, the other
     * group's side to (or from) the root; the root group's other ranks take no part.
     */
    private Request rooted(String operation, int root, boolean rootSends, Blocks rootSide, Blocks otherSide)
            throws MPIException {
        return call(operation, rt -> {
            if (root == MPI.ROOT) {
                return rootSends ? exchange(rootSide, everyRemote(), null, NONE)
                        : exchange(null, NONE, rootSide, everyRemote());
            }
            if (root == MPI.PROC_NULL) {
                return exchange(null, NONE, null, NONE);
            }
            int[] fromRoot = {remoteRoot(root)};
            return rootSends ? exchange(null, NONE, otherSide, fromRoot) : exchange(otherSide, fromRoot, null,
                    NONE);
        });
    }

    /** A root in the other group: its rank there. */
    private int remoteRoot(int root) throws MPIException {
        if (root < 0 || root >= core.peers.length) {
            throw new MPIException(MPI.ERR_ROOT, "invalid root " + root + " on the intercommunicator " + this
                    + ": the root passes MPI.ROOT, the other ranks of its group MPI.PROC_NULL, and the other group"
                    + " the root's rank in its group (0.." + (core.peers.length - 1) + ")");
        }
        return root;
    }

    /** Sends {@code send}'s blocks to the ranks {@code out}, receives {@code receive}'s from {@code in}. */
    private Request exchange(Blocks send, int[] out, Blocks receive, int[] in) {
        return started(PointToPointCollectives.exchange(core, send, out, receive, in));
    }

    /** An exchange between the groups: {@code send} to every remote rank, {@code receive} from each. */
    private Request between(String operation, Blocks send, Blocks receive) throws MPIException {
        return call(operation, rt -> exchange(send, everyRemote(), receive, everyRemote()));
    }

    @Override
    public void barrier() throws MPIException {
        iBarrier().waitFor();
    }

    @Override
    public Request iBarrier() throws MPIException {
        byte[] none = new byte[0];
        return between("MPI_Barrier", Blocks.whole(none, 0, Datatype.use(MPI.BYTE)), Blocks.even(none, 0, Datatype.use(MPI.BYTE)));
    }

    @Override
    public void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        bcast("MPI_Bcast", buf, count, type, root).waitFor();
    }

    @Override
    public Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return bcast("MPI_Ibcast", buf, count, type, root);
    }

    private Request bcast(String operation, Object buf, int count, Datatype type, int root) throws MPIException {
        return rooted(operation, root, true, Blocks.whole(buf, count, Datatype.use(type)), Blocks.even(buf, count, Datatype.use(type)));
    }

    @Override
    public void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                       Datatype recvtype, int root) throws MPIException {
        iGatherAny("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root).waitFor();
    }

    @Override
    public Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                           Datatype recvtype, int root) throws MPIException {
        return iGatherAny("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    private Request iGatherAny(String operation, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        return rooted(operation, root, false, Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)),
                Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)));
    }

    @Override
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                        int[] displs, Datatype recvtype, int root) throws MPIException {
        gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root).waitFor();
    }

    /** At the root (MPI.ROOT): receives only. */
    @Override
    public void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        gatherv("MPI_Gatherv", null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root).waitFor();
    }

    /** In the other group: sends only. */
    @Override
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, null, null, null, sendtype, root).waitFor();
    }

    @Override
    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                            int[] displs, Datatype recvtype, int root) throws MPIException {
        return gatherv("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root);
    }

    @Override
    public Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return gatherv("MPI_Igatherv", null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root);
    }

    @Override
    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return gatherv("MPI_Igatherv", sendbuf, sendcount, sendtype, null, null, null, sendtype, root);
    }

    private Request gatherv(String operation, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        return rooted(operation, root, false, Blocks.varying(recvbuf, recvcount, displs, Datatype.use(recvtype)),
                Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)));
    }

    @Override
    public void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                        Datatype recvtype, int root) throws MPIException {
        scatter("MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root).waitFor();
    }

    @Override
    public Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                            Datatype recvtype, int root) throws MPIException {
        return scatter("MPI_Iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    private Request scatter(String operation, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype, int root) throws MPIException {
        return rooted(operation, root, true, Blocks.even(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    @Override
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                         int recvcount, Datatype recvtype, int root) throws MPIException {
        scatterv("MPI_Scatterv", sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root).waitFor();
    }

    /** At the root (MPI.ROOT): sends only. */
    @Override
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        scatterv("MPI_Scatterv", sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root).waitFor();
    }

    /** In the other group: receives only. */
    @Override
    public void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        scatterv("MPI_Scatterv", null, null, null, recvtype, recvbuf, recvcount, recvtype, root).waitFor();
    }

    @Override
    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
                             int recvcount, Datatype recvtype, int root) throws MPIException {
        return scatterv("MPI_Iscatterv", sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root);
    }

    @Override
    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return scatterv("MPI_Iscatterv", sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root);
    }

    @Override
    public Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return scatterv("MPI_Iscatterv", null, null, null, recvtype, recvbuf, recvcount, recvtype, root);
    }

    private Request scatterv(String operation, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return rooted(operation, root, true, Blocks.varying(sendbuf, sendcount, displs, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    @Override
    public void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                          Datatype recvtype) throws MPIException {
        allGather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).waitFor();
    }

    @Override
    public Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                              Datatype recvtype) throws MPIException {
        return allGather("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    private Request allGather(String operation, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvcount, Datatype recvtype) throws MPIException {
        return between(operation, Blocks.whole(notInPlace(sendbuf, operation), sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    @Override
    public void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                           int[] displs, Datatype recvtype) throws MPIException {
        allGatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype).waitFor();
    }

    @Override
    public Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                               int[] displs, Datatype recvtype) throws MPIException {
        return allGatherv("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
    }

    private Request allGatherv(String operation, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return between(operation, Blocks.whole(notInPlace(sendbuf, operation), sendcount, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    @Override
    public void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                         Datatype recvtype) throws MPIException {
        between("MPI_Alltoall", Blocks.even(notInPlace(sendbuf, "MPI_Alltoall"), sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype))).waitFor();
    }

    @Override
    public Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                             Datatype recvtype) throws MPIException {
        return between("MPI_Ialltoall", Blocks.even(notInPlace(sendbuf, "MPI_Ialltoall"), sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    @Override
    public void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                          int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        between("MPI_Alltoallv", Blocks.varying(notInPlace(sendbuf, "MPI_Alltoallv"), sendcount, sdispls, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, rdispls, Datatype.use(recvtype))).waitFor();
    }

    @Override
    public Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf,
                              int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return between("MPI_Ialltoallv", Blocks.varying(notInPlace(sendbuf, "MPI_Ialltoallv"), sendcount, sdispls, Datatype.use(sendtype)), Blocks.varying(recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    // ---- reductions -----------------------------------------------------------------------------

    @Override
    public void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        reduce("MPI_Reduce", sendbuf, recvbuf, count, type, op, root).waitFor();
    }

    @Override
    public Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return reduce("MPI_Ireduce", sendbuf, recvbuf, count, type, op, root);
    }

    private Request reduce(String operation, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                           int root) throws MPIException {
        if (root == MPI.ROOT) {
            return reduction(operation, null, recvbuf, count, type, op, NONE, everyRemote(), 0, count);
        }
        if (root == MPI.PROC_NULL) {
            return reduction(operation, null, null, count, type, op, NONE, NONE, 0, 0);
        }
        return reduction(operation, sendbuf, null, count, type, op, new int[] {root}, NONE, 0, 0);
    }

    @Override
    public void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        allReduce("MPI_Allreduce", sendbuf, recvbuf, count, type, op).waitFor();
    }

    @Override
    public Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return allReduce("MPI_Iallreduce", sendbuf, recvbuf, count, type, op);
    }

    private Request allReduce(String operation, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return reduction(operation, notInPlace(sendbuf, operation), recvbuf, count, type, op, everyRemote(),
                everyRemote(), 0, count);
    }

    /** The reduction of the remote group's vectors ({@code size() * recvcount} elements) is scattered here by rank. */
    @Override
    public void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        reduceScatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, blocks(recvcount), type, op).waitFor();
    }

    @Override
    public Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return reduceScatter("MPI_Ireduce_scatter_block", sendbuf, recvbuf, blocks(recvcount), type, op);
    }

    private int[] blocks(int count) {
        int[] counts = new int[size()];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    /** The reduction of the remote group's vectors is scattered here: {@code recvcounts[r]} elements to rank r. */
    @Override
    public void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        reduceScatter("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, type, op).waitFor();
    }

    @Override
    public Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return reduceScatter("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, type, op);
    }

    private Request reduceScatter(String operation, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type,
                                  Op op) throws MPIException {
        if (recvcounts == null || recvcounts.length < size()) {
            throw failure(operation, new MPIException(MPI.ERR_COUNT, "the receive counts need " + size()
                    + " entries, one per rank of the local group"));
        }
        int total = 0;
        int before = 0;
        for (int r = 0; r < size(); r++) {
            total += recvcounts[r];
            before += r < rank() ? recvcounts[r] : 0;
        }
        return reduction(operation, notInPlace(sendbuf, operation), recvbuf, total, type, op, everyRemote(),
                everyRemote(), before, recvcounts[rank()]);
    }

    /**
     * A reduction between the groups: this process's {@code count}-element operand goes to each
     * rank of {@code to}; the operands of the ranks of {@code from} (in rank order, lowest first)
     * are folded, and elements {@code [offset, offset + resultCount)} of the result land in {@code
     * recvbuf}.
     */
    private Request reduction(String operation, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                              int[] to, int[] from, int offset, int resultCount) throws MPIException {
        return call(operation, rt -> {
            if (op == null || type == null) {
                throw new MPIException(op == null ? MPI.ERR_OP : MPI.ERR_TYPE, "the " + (op == null ? "operation"
                        : "datatype") + " is null");
            }
            if (count < 0) {
                throw new MPIException(MPI.ERR_COUNT, "count " + count + " is negative");
            }
            for (int r : to) {
                remoteRoot(r);
            }
            return started(PointToPointCollectives.reduceBetween(core, sendbuf, recvbuf, count, Datatype.use(type),
                    op.bind(type), to, from, offset, resultCount));
        });
    }

    /** MPI_IN_PLACE (a null send buffer) is not defined between two groups. */
    private Object notInPlace(Object sendbuf, String operation) throws MPIException {
        if (sendbuf == null) {
            throw failure(operation, new MPIException(MPI.ERR_COMM, operation + " in this form is not defined on an"
                    + " intercommunicator (in-place forms and scans work within one group)"));
        }
        return sendbuf;
    }
}
