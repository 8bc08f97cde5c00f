package mpi;

/** This rank's neighbours in a distributed graph: whom it receives from and sends to, with weights if given. */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destinationWeights;
    private final boolean weighted;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights,
                       boolean weighted) {
        this.sources = sources.clone();
        this.sourceWeights = sourceWeights.clone();
        this.destinations = destinations.clone();
        this.destinationWeights = destinationWeights.clone();
        this.weighted = weighted;
    }

    public int getInDegree() {
        return sources.length;
    }

    public int getOutDegree() {
        return destinations.length;
    }

    public int getSource(int i) {
        return sources[i];
    }

    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    public int getDestination(int i) {
        return destinations[i];
    }

    public int getDestinationWeight(int i) {
        return destinationWeights[i];
    }

    int[] sources() {
        return sources.clone();
    }

    int[] destinations() {
        return destinations.clone();
    }

    public boolean isWeighted() {
        return weighted;
    }
}
