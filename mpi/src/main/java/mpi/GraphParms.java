package mpi;

/** A graph topology as {@link GraphComm#getDims()} gives it: MPI_Graph_create's index and edges arrays. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    public int getIndexCount() {
        return index.length;
    }

    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
