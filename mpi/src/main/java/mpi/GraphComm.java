package mpi;

import java.util.ArrayList;
import java.util.List;
import org.jmca.runtime.InternalCollectives;

/**
 * A communicator with a graph topology: a graph every rank knows whole ({@link
 * Intracomm#createGraph}), or a distributed graph where each rank knows its own neighbours
 * ({@link Intracomm#createDistGraph}, {@link Intracomm#createDistGraphAdjacent}).
 */
public final class GraphComm extends Intracomm {
    private final int[] index;
    private final int[] edges;
    private final DistGraphNeighbors distributed;

    private GraphComm(String name, int[] index, int[] edges, DistGraphNeighbors distributed) {
        super(name);
        this.index = index;
        this.edges = edges;
        this.distributed = distributed;
    }

    static GraphComm graph(String name, int[] index, int[] edges) {
        return new GraphComm(name, index, edges, null);
    }

    static GraphComm distributed(String name, DistGraphNeighbors neighbours) {
        return new GraphComm(name, null, null, neighbours);
    }

    static void check(int[] index, int[] edges, int size, Comm comm) throws MPIException {
        if (index == null || edges == null || index.length > size) {
            throw comm.failure("MPI_Graph_create", new MPIException(MPI.ERR_ARG, "a graph of "
                    + (index == null ? "no" : index.length) + " nodes on " + size + " ranks"));
        }
        int previous = 0;
        for (int i : index) {
            if (i < previous || i > edges.length) {
                throw comm.failure("MPI_Graph_create", new MPIException(MPI.ERR_ARG, "index " + i
                        + " must not decrease nor pass the " + edges.length + " edges"));
            }
            previous = i;
        }
        checkRanks(edges, index.length, "edge", comm);
    }

    static void checkRanks(int[] ranks, int size, String what, Comm comm) throws MPIException {
        for (int r : ranks) {
            if (r < 0 || r >= size) {
                throw comm.failure("MPI_Graph_create", new MPIException(MPI.ERR_RANK, what + " " + r
                        + " is not a rank of " + size));
            }
        }
    }

    /** A distributed graph from edges any rank may name: every rank learns its own in and out edges. */
    static GraphComm fromEdges(Intracomm comm, int[] sources, int[] degrees, int[] destinations, int[] weights,
                               boolean weighted) throws MPIException {
        // as Open MPI's bindings: sources.length edges' sources; longer arrays are read no further
        if (sources == null || degrees == null || destinations == null || degrees.length < sources.length) {
            throw comm.failure("MPI_Dist_graph_create", new MPIException(MPI.ERR_ARG, sources == null
                    || degrees == null || destinations == null ? "sources, degrees and destinations must not be null"
                    : "degrees has " + degrees.length + " entries for " + sources.length + " sources"));
        }
        long edges = 0;
        for (int i = 0; i < sources.length; i++) {
            if (degrees[i] < 0) {
                throw comm.failure("MPI_Dist_graph_create", new MPIException(MPI.ERR_ARG, "degree " + degrees[i]
                        + " of source " + i + " is negative"));
            }
            edges += degrees[i];
        }
        if (destinations.length < edges || weighted && (weights == null || weights.length < edges)) {
            throw comm.failure("MPI_Dist_graph_create", new MPIException(MPI.ERR_ARG, "the degrees name " + edges
                    + " edges, but " + (destinations.length < edges ? "destinations has " + destinations.length
                    : "weights has " + (weights == null ? "none" : weights.length))));
        }
        checkRanks(sources, comm.size(), "source", comm);
        checkRanks(java.util.Arrays.copyOf(destinations, (int) edges), comm.size(), "destination", comm);
        List<int[]> mine = new ArrayList<>();
        int at = 0;
        for (int i = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, at++) {
                mine.add(new int[] {sources[i], destinations[at], weighted ? weights[at] : 0});
            }
        }
        int[] counts = comm.call("MPI_Dist_graph_create", rt -> InternalCollectives.allgather(comm.core,
                new int[] {mine.size()}));
        int most = java.util.Arrays.stream(counts).max().orElse(0);
        int[] flat = new int[1 + 3 * most];
        flat[0] = mine.size();
        for (int i = 0; i < mine.size(); i++) {
            System.arraycopy(mine.get(i), 0, flat, 1 + 3 * i, 3);
        }
        int[] all = comm.call("MPI_Dist_graph_create", rt -> InternalCollectives.allgather(comm.core, flat));
        List<int[]> in = new ArrayList<>();
        List<int[]> out = new ArrayList<>();
        for (int r = 0; r < comm.size(); r++) {
            int base = r * flat.length;
            for (int i = 0; i < all[base]; i++) {
                int[] edge = {all[base + 1 + 3 * i], all[base + 2 + 3 * i], all[base + 3 + 3 * i]};
                if (edge[1] == comm.rank()) {
                    in.add(new int[] {edge[0], edge[2]});
                }
                if (edge[0] == comm.rank()) {
                    out.add(new int[] {edge[1], edge[2]});
                }
            }
        }
        return comm.distGraph(in.stream().mapToInt(e -> e[0]).toArray(), in.stream().mapToInt(e -> e[1]).toArray(),
                out.stream().mapToInt(e -> e[0]).toArray(), out.stream().mapToInt(e -> e[1]).toArray(), weighted);
    }

    @Override
    GraphComm sameKind(String name) {
        return new GraphComm(name, index, edges, distributed);
    }

    @Override
    public GraphComm dup() throws MPIException {
        return (GraphComm) super.dup();
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return (GraphComm) super.dupWithInfo(info);
    }

    @Override
    public GraphComm iDup() throws MPIException {
        return (GraphComm) super.iDup();
    }

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    @Override
    int topology() {
        return distributed != null ? MPI.DIST_GRAPH : MPI.GRAPH;
    }

    /** The graph's index and edges arrays (a graph, not a distributed one). */
    public GraphParms getDims() throws MPIException {
        return call("MPI_Graphdims_get", rt -> new GraphParms(graphOnly().index, edges));
    }

    public int[] getNeighbors(int rank) throws MPIException {
        return call("MPI_Graph_neighbors", rt -> {
            if (rank < 0 || rank >= graphOnly().index.length) {
                throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is not a node of the graph");
            }
            return java.util.Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
        });
    }

    /** This rank's sources and destinations (for a graph, its neighbours both ways). */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        return call("MPI_Dist_graph_neighbors", rt -> {
            if (distributed != null) {
                return distributed;
            }
            int[] around = getNeighbors(rank());
            return new DistGraphNeighbors(around, new int[around.length], around, new int[around.length], false);
        });
    }

    /** The rank this process would have in a graph of {@code index} and {@code edges}, or MPI.UNDEFINED. */
    public int map(int[] index, int[] edges) throws MPIException {
        check(index, edges, size(), this);
        return call("MPI_Graph_map", rt -> rank() < index.length ? rank() : MPI.UNDEFINED);
    }

    private GraphComm graphOnly() throws MPIException {
        if (index == null) {
            throw new MPIException(MPI.ERR_TOPOLOGY, this + " has a distributed graph: use getDistGraphNeighbors");
        }
        return this;
    }

    @Override
    int[] inNeighbours() throws MPIException {
        return getDistGraphNeighbors().sources();
    }

    @Override
    int[] outNeighbours() throws MPIException {
        return getDistGraphNeighbors().destinations();
    }
}
