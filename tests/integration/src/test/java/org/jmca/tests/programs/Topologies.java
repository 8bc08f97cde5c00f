package org.jmca.tests.programs;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.CartComm;
import mpi.CartParms;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Process topologies on 4 ranks: createDims, a 2 x 2 grid periodic in one dimension (coordinates,
 * ranks, shifts, sub-grids, map), a grid smaller than the job, a ring as a graph and as
 * distributed graphs (adjacent and from edges one rank names), and the neighbourhood
 * collectives on each, checked against the neighbours computed here. Prints "PASS topologies".
 */
public final class Topologies {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Check.equal(size, 4, "ranks (this program runs on 4)");

        int[] dims = {0, 0};
        CartComm.createDims(6, dims);
        Check.that(Arrays.equals(dims, new int[] {3, 2}), "createDims(6): " + Arrays.toString(dims));
        int[] three = {0, 3, 0};
        CartComm.createDims(12, three);
        Check.that(Arrays.equals(three, new int[] {2, 3, 2}), "createDims(12, {0,3,0}): " + Arrays.toString(three));

        CartComm grid = world.createCart(new int[] {2, 2}, new boolean[] {true, false}, false);
        Check.equal(grid.getTopology(), MPI.CART, "a grid's topology");
        CartParms topo = grid.getTopo();
        Check.that(topo.getDimCount() == 2 && topo.getDim(0) == 2 && topo.getPeriod(0) && !topo.getPeriod(1),
                "getTopo");
        int[] coords = grid.getCoords(rank);
        Check.that(coords[0] == rank / 2 && coords[1] == rank % 2 && topo.getCoord(1) == rank % 2, "coordinates");
        Check.equal(grid.getRank(new int[] {coords[0] + 2, coords[1]}), rank, "a periodic coordinate wraps");
        ShiftParms rows = grid.shift(0, 1);
        Check.that(rows.getRankSource() == (rank + 2) % 4 && rows.getRankDest() == (rank + 2) % 4, "periodic shift");
        ShiftParms columns = grid.shift(1, 1);
        Check.equal(columns.getRankDest(), rank % 2 == 0 ? rank + 1 : MPI.PROC_NULL, "shift off a non-periodic edge");
        Check.equal(columns.getRankSource(), rank % 2 == 1 ? rank - 1 : MPI.PROC_NULL, "shift source");
        CartComm row = grid.sub(new boolean[] {false, true});
        Check.that(row.getSize() == 2 && row.getRank() == rank % 2, "sub keeps a row");
        Check.equal(grid.map(new int[] {3}, new boolean[] {false}), rank < 3 ? rank : MPI.UNDEFINED, "map");
        CartComm dupGrid = grid.dup();
        Check.that(Arrays.equals(dupGrid.getCoords(rank), coords), "a dup keeps the topology");

        // neighbours per dimension: below, above; MPI.PROC_NULL leaves its block as it was
        int[] expected = {(rank + 2) % 4, (rank + 2) % 4, rank % 2 == 1 ? rank - 1 : -1, rank % 2 == 0 ? rank + 1 : -1};
        int[] gathered = {-1, -1, -1, -1};
        grid.neighborAllGather(new int[] {rank}, 1, MPI.INT, gathered, 1, MPI.INT);
        Check.that(Arrays.equals(gathered, expected), "neighborAllGather on the grid: " + Arrays.toString(gathered));

        CartComm small = world.createCart(new int[] {3}, new boolean[] {false}, false);
        Check.that(rank < 3 ? !small.isNull() && small.getSize() == 3 : small.isNull(), "a grid smaller than the job");

        int[] index = {2, 4, 6, 8};
        int[] edges = {1, 3, 0, 2, 1, 3, 2, 0};
        GraphComm ring = world.createGraph(index, edges, false);
        Check.equal(ring.getTopology(), MPI.GRAPH, "a graph's topology");
        GraphParms parms = ring.getDims();
        Check.that(parms.getIndexCount() == 4 && parms.getEdgeCount() == 8 && parms.getEdge(3) == 2, "getDims");
        int[] around = ring.getNeighbors(rank);
        Check.that(Arrays.equals(around, Arrays.copyOfRange(edges, 2 * rank, 2 * rank + 2)), "getNeighbors");
        int[] outgoing = {rank * 10, rank * 10 + 1};
        int[] incoming = new int[2];
        ring.neighborAllToAll(outgoing, 1, MPI.INT, incoming, 1, MPI.INT);
        for (int i = 0; i < 2; i++) {
            int from = around[i];
            int slot = Arrays.stream(ring.getNeighbors(from)).boxed().toList().indexOf(rank);
            Check.equal(incoming[i], from * 10 + slot, "neighborAllToAll on the ring, block " + i);
        }

        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        GraphComm adjacent = world.createDistGraphAdjacent(new int[] {previous}, new int[] {5},
                new int[] {next}, new int[] {7}, MPI.INFO_NULL, false);
        Check.equal(adjacent.getTopology(), MPI.DIST_GRAPH, "a distributed graph's topology");
        DistGraphNeighbors mine = adjacent.getDistGraphNeighbors();
        Check.that(mine.isWeighted() && mine.getInDegree() == 1 && mine.getSource(0) == previous
                && mine.getDestination(0) == next && mine.getDestinationWeight(0) == 7, "adjacent neighbours");
        int[] one = new int[3];
        adjacent.neighborAllGatherv(new int[] {rank, rank}, 2, MPI.INT, one, new int[] {2}, new int[] {1}, MPI.INT);
        Check.that(Arrays.equals(one, new int[] {0, previous, previous}), "neighborAllGatherv: " + Arrays.toString(one));

        int[] sources = rank == 0 ? new int[] {0, 1, 2, 3} : new int[0];
        int[] degrees = rank == 0 ? new int[] {1, 1, 1, 1} : new int[0];
        int[] targets = rank == 0 ? new int[] {1, 2, 3, 0} : new int[0];
        GraphComm named = world.createDistGraph(sources, degrees, targets, MPI.INFO_NULL, false);
        DistGraphNeighbors fromEdges = named.getDistGraphNeighbors();
        Check.that(fromEdges.getInDegree() == 1 && fromEdges.getSource(0) == previous && fromEdges.getOutDegree() == 1
                && fromEdges.getDestination(0) == next && !fromEdges.isWeighted(), "createDistGraph from one rank's edges");
        IntBuffer send = MPI.newIntBuffer(3).put(0, 9).put(1, rank).put(2, 9);
        IntBuffer receive = MPI.newIntBuffer(2);
        named.iNeighborAllToAllv(send, new int[] {1}, new int[] {1}, MPI.INT, receive, new int[] {1}, new int[] {1},
                MPI.INT).waitFor();
        Check.that(receive.get(1) == previous && receive.get(0) == 0, "iNeighborAllToAllv");

        world.setErrhandler(MPI.ERRORS_RETURN);
        try {
            world.neighborAllGather(new int[1], 1, MPI.INT, new int[1], 1, MPI.INT);
            throw new AssertionError("a neighbourhood collective without a topology went through");
        } catch (MPIException e) {
            Check.equal(e.getErrorClass(), MPI.ERR_TOPOLOGY, "no topology: " + e.getMessage());
        }
        world.barrier();
        System.out.println("PASS topologies rank " + rank);
        MPI.Finalize();
    }
}
