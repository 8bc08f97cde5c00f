package mpi;

import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jmca.mca.coll.CollFunction;
import org.jmca.runtime.Communicator;
import org.jmca.runtime.DynamicProcesses;
import org.jmca.runtime.InternalCollectives;
import org.jmca.runtime.Spawning;

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
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    @Override
    Intracomm sameKind(String name) {
        return new Intracomm(name);
    }

    // ---- process topologies -------------------------------------------------------------------

    /**
     * The first {@code dims[0] x dims[1] x ...} ranks as a Cartesian grid (row-major: the last
     * dimension varies fastest), periodic where {@code periods} says; the other ranks get a null
     * communicator. JMCA keeps the ranks in their order ({@code reorder} changes nothing). Collective.
     */
    public CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        int cells = CartComm.cells(dims, periods, this);
        int[] grid = dims.clone();
        boolean[] wrap = periods.clone();
        return splitAs("MPI_Cart_create", rank() < cells ? 0 : MPI.UNDEFINED, rank(),
                name -> new CartComm(name, grid, wrap));
    }

    /**
     * The first {@code index.length} ranks as a graph: rank i's neighbours are
     * {@code edges[index[i-1] .. index[i])}. Collective.
     */
    public GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        GraphComm.check(index, edges, size(), this);
        int[] idx = index.clone();
        int[] e = edges.clone();
        return splitAs("MPI_Graph_create", rank() < index.length ? 0 : MPI.UNDEFINED, rank(),
                name -> GraphComm.graph(name, idx, e));
    }

    /** A distributed graph where each rank names its own sources and destinations, with weights. Collective. */
    public GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                             int[] destWeights, Info info, boolean reorder) throws MPIException {
        return distGraph(sources, sourceWeights, destinations, destWeights, true);
    }

    /** As above, unweighted. */
    public GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return distGraph(sources, new int[sources.length], destinations, new int[destinations.length], false);
    }

    /**
     * A distributed graph where each rank may name any edges: {@code degrees[i]} edges go from
     * {@code sources[i]} to the next destinations, with weights. Collective.
     */
    public GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info,
                                     boolean reorder) throws MPIException {
        return GraphComm.fromEdges(this, sources, degrees, destinations, weights, true);
    }

    /** As above, unweighted. */
    public GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return GraphComm.fromEdges(this, sources, degrees, destinations, null, false);
    }

    final GraphComm distGraph(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                              boolean weighted) throws MPIException {
        GraphComm.checkRanks(sources, size(), "source", this);
        GraphComm.checkRanks(destinations, size(), "destination", this);
        DistGraphNeighbors neighbors = new DistGraphNeighbors(sources, sourceWeights, destinations, destWeights,
                weighted);
        return splitAs("MPI_Dist_graph_create", 0, rank(), name -> GraphComm.distributed(name, neighbors));
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
            if (java.util.Arrays.stream(core.jobRanks).noneMatch(j -> j == member)) {
                throw failure("MPI_Comm_create", new MPIException(MPI.ERR_GROUP, "the group has a process that is not"
                        + " in " + this + " (job rank " + member + ")"));
            }
            if (member == core.jobRanks[rank()]) {
                mine = i;
            }
        }
        return split(mine < 0 ? MPI.UNDEFINED : 0, mine);
    }

    /**
     * The ranks of {@code group} (a subgroup of this communicator's) as a new communicator, made
     * by those ranks alone: collective over the group, and {@code tag} keeps concurrent calls
     * over overlapping groups apart. A process outside the group gets a null communicator.
     */
    public Intracomm createGroup(Group group, int tag) throws MPIException {
        return call("MPI_Comm_create_group", rt -> {
            checkSendTag(tag);
            int[] members = group.jobRanks();
            boolean mine = false;
            for (int member : members) {
                if (java.util.Arrays.stream(core.jobRanks).noneMatch(j -> j == member)) {
                    throw new MPIException(MPI.ERR_GROUP, "the group has a process that is not in " + this
                            + " (job rank " + member + ")");
                }
                mine |= member == rt.job.rank();
            }
            if (!mine) {
                Intracomm none = new Intracomm("MPI_COMM_NULL");
                none.makeNull(errhandler());
                return none;
            }
            // the members agree on a context among themselves, on this communicator's point-to-point
            // context under a negative tag of their own (no receive of the program's can match it)
            Communicator memberComm = new Communicator(rt, this + " group(" + tag + ") members", core.context,
                    members, members, Map.of());
            int internalTag = -2 - tag;
            int agreed = rt.agree(value -> {
                int max = Integer.MIN_VALUE;
                for (int v : InternalCollectives.allgather(memberComm, new int[] {value}, core.context,
                        internalTag, internalTag)) {
                    max = Math.max(max, v);
                }
                return max;
            });
            Intracomm made = new Intracomm(this + " group(" + tag + ")");
            made.bind(rt, agreed, members);
            made.setErrhandler(errhandler());
            return made;
        });
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
            // the host's name as the colour, so that processes of other jobs (accept, spawn) on it agree
            String mine = runtime().hostOf(core.jobRanks[rank()]);
            try {
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                        .digest(mine.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                colour = java.nio.ByteBuffer.wrap(digest).getInt() & Integer.MAX_VALUE;
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
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
        return splitAs("MPI_Comm_split", colour, key, Intracomm::new);
    }

    /** A split whose parts are made by {@code make} (an Intracomm, or one with a topology). */
    final <T extends Intracomm> T splitAs(String operation, int colour, int key,
                                          java.util.function.Function<String, T> make) throws MPIException {
        return call(operation, rt -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw new MPIException(MPI.ERR_ARG, "colour " + colour + " is negative (only MPI.UNDEFINED may be)");
            }
            int context = Comm.agreeOnContext(rt, this);
            int[] all = InternalCollectives.allgather(core, new int[] {colour, key});
            if (colour == MPI.UNDEFINED) {
                T none = make.apply("MPI_COMM_NULL");
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
            int[] ranks = members.stream().mapToInt(m -> core.jobRanks[m[1]]).toArray();
            T part = make.apply(this + " split(" + colour + ")");
            part.bind(rt, context, ranks);
            part.setErrhandler(errhandler());
            return part;
        });
    }

    // ---- dynamic processes ----------------------------------------------------------------------

    /** A port other jobs may connect to (see {@link #accept}). */
    public static String openPort() throws MPIException {
        return openPort(MPI.INFO_NULL);
    }

    public static String openPort(Info info) throws MPIException {
        return MPI.COMM_WORLD.call("MPI_Open_port", DynamicProcesses::openPort);
    }

    public static void closePort(String port) throws MPIException {
        MPI.COMM_WORLD.call("MPI_Close_port", rt -> {
            DynamicProcesses.closePort(port);
            return null;
        });
    }

    /**
     * Waits for a job to connect to {@code port} (open at {@code root}) and returns the
     * intercommunicator to its processes. Collective.
     */
    public Intercomm accept(String port, int root) throws MPIException {
        return accept(port, MPI.INFO_NULL, root);
    }

    public Intercomm accept(String port, Info info, int root) throws MPIException {
        return call("MPI_Comm_accept", rt -> Intercomm.of(this, rt,
                DynamicProcesses.accept(rt, core, port, checkedRoot(root), null)));
    }

    /** Connects to the job that accepts on {@code port}: the intercommunicator to its processes. Collective. */
    public Intercomm connect(String port, int root) throws MPIException {
        return connect(port, MPI.INFO_NULL, root);
    }

    public Intercomm connect(String port, Info info, int root) throws MPIException {
        return call("MPI_Comm_connect", rt -> Intercomm.of(this, rt,
                DynamicProcesses.connect(rt, core, port, checkedRoot(root))));
    }

    private int checkedRoot(int root) throws MPIException {
        if (root < 0 || root >= size()) {
            throw new MPIException(MPI.ERR_ROOT, "invalid root " + root + ": " + this + " has ranks 0.." + (size() - 1));
        }
        return root;
    }

    /** Publishes {@code port} under {@code service} in the name service other jobs look names up in. */
    public static void publishName(String service, String port) throws MPIException {
        publishName(service, MPI.INFO_NULL, port);
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        MPI.COMM_WORLD.call("MPI_Publish_name", rt -> {
            DynamicProcesses.publish(service, port);
            return null;
        });
    }

    public static void unpublishName(String service, String port) throws MPIException {
        unpublishName(service, MPI.INFO_NULL, port);
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        MPI.COMM_WORLD.call("MPI_Unpublish_name", rt -> {
            DynamicProcesses.unpublish(service, port);
            return null;
        });
    }

    /** The port published under {@code service}; MPI_ERR_NAME if there is none. */
    public static String lookupName(String service) throws MPIException {
        return lookupName(service, MPI.INFO_NULL);
    }

    public static String lookupName(String service, Info info) throws MPIException {
        return MPI.COMM_WORLD.call("MPI_Lookup_name", rt -> DynamicProcesses.lookup(service));
    }

    /**
     * Starts {@code maxprocs} processes of a Java program as a new job and returns the
     * intercommunicator to them (their {@link Intercomm#getParent()}). {@code command} is "java"
     * and {@code argv} what follows it on a java command line: JVM options, "-cp PATH" (without
     * it, the class path this rank runs with), the class (or "-jar JAR") and its arguments. The
     * info key "wdir" names the new job's working directory (else this process's). Collective;
     * {@code root} starts the job.
     */
    public Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        return spawnJob("MPI_Comm_spawn", new String[] {command}, new String[][] {argv}, new int[] {maxprocs},
                new Info[] {info}, root, errcodes);
    }

    /**
     * As {@link #spawn} for several programs in one new job (application contexts): the first
     * {@code maxprocs[0]} ranks run {@code commands[0]} with {@code argv[0]}, and so on; each
     * rank's MPI.APPNUM is the number of its program. The programs' JVM options must agree.
     */
    public Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                   int[] errcodes) throws MPIException {
        return spawnJob("MPI_Comm_spawn_multiple", commands, argv, maxprocs, info, root, errcodes);
    }

    /** Starts the programs as one new job; the intercommunicator to it. Collective. */
    private Intercomm spawnJob(String operation, String[] commands, String[][] argv, int[] maxprocs, Info[] info,
                               int root, int[] errcodes) throws MPIException {
        return call(operation, rt -> {
            Spawning.Spawned spawned = Spawning.spawn(rt, core, commands, argv, maxprocs, workingDirectory(info),
                    checkedRoot(root));
            if (errcodes != null) {
                Arrays.fill(errcodes, 0, Math.min(errcodes.length, spawned.processes()), MPI.SUCCESS);
            }
            return Intercomm.of(this, rt, spawned.children());
        });
    }

    /** The info key "wdir" of the first info that has it, or null. */
    private static String workingDirectory(Info[] info) throws MPIException {
        for (Info each : info == null ? new Info[0] : info) {
            String wdir = each == null || each.isNull() ? null : each.get("wdir");
            if (wdir != null) {
                return wdir;
            }
        }
        return null;
    }

    // ---- prefix reductions --------------------------------------------------------------------

    /** Rank r receives the reduction of the operands of ranks 0..r. */
    public void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Scan", CollFunction.SCAN, c ->
                reduction(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    /** In place: the operand is in {@code buf}, which receives the result. */
    public void scan(Object buf, int count, Datatype type, Op op) throws MPIException {
        scan(null, buf, count, type, op);
    }

    public Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iscan", CollFunction.SCAN, c ->
                reduction(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    public Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iScan(null, buf, count, type, op);
    }

    /** Rank r receives the reduction of the operands of ranks 0..r-1; rank 0's buffer is left as it is. */
    public void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Exscan", CollFunction.EXSCAN, c ->
                reduction(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    /** In place. */
    public void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        exScan(null, buf, count, type, op);
    }

    public Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iexscan", CollFunction.EXSCAN, c ->
                reduction(c, sendbuf, recvbuf, count, type, op, 0, false));
    }

    public Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iExScan(null, buf, count, type, op);
    }
}
