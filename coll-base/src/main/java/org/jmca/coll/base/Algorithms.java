package org.jmca.coll.base;

import static org.jmca.mca.coll.CollFunction.*;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jmca.mca.coll.CollFunction;

/** Every algorithm of every collective, by Open MPI's numbers (coll/base's catalogue). */
public final class Algorithms {
    private static final Map<CollFunction, List<Algorithm>> ALL = new EnumMap<>(CollFunction.class);

    static {
        add(BARRIER, "linear", false, false, (s, c, t) -> Barriers.linear(s));
        add(BARRIER, "double_ring", false, false, (s, c, t) -> Barriers.doubleRing(s));
        add(BARRIER, "recursive_doubling", false, false, (s, c, t) -> Barriers.recursiveDoubling(s));
        add(BARRIER, "bruck", false, false, (s, c, t) -> Barriers.bruck(s));
        add(BARRIER, "two_proc", false, true, (s, c, t) -> Barriers.twoProc(s));
        add(BARRIER, "tree", false, false, (s, c, t) -> Barriers.tree(s));

        add(BCAST, "basic_linear", false, false, (s, c, t) -> Bcasts.linear(s, c));
        add(BCAST, "chain", false, false, (s, c, t) -> Bcasts.chain(s, c, t.segmentSize(), t.chainFanout()));
        add(BCAST, "pipeline", false, false, (s, c, t) -> Bcasts.pipeline(s, c, t.segmentSize()));
        add(BCAST, "split_binary_tree", false, false, (s, c, t) -> Bcasts.splitBinaryTree(s, c, t.segmentSize()));
        add(BCAST, "binary_tree", false, false, (s, c, t) -> Bcasts.binaryTree(s, c, t.segmentSize()));
        add(BCAST, "binomial", false, false, (s, c, t) -> Bcasts.binomial(s, c, t.segmentSize()));
        add(BCAST, "knomial", false, false, (s, c, t) -> Bcasts.knomial(s, c, t.segmentSize(), t.treeFanout()));
        add(BCAST, "scatter_allgather", false, false, (s, c, t) -> Bcasts.scatterAllgather(s, c));
        add(BCAST, "scatter_allgather_ring", false, false, (s, c, t) -> Bcasts.scatterAllgatherRing(s, c));

        add(ALLREDUCE, "basic_linear", false, false, (s, c, t) -> Allreduces.basicLinear(s, c));
        add(ALLREDUCE, "nonoverlapping", false, false, (s, c, t) -> Allreduces.nonoverlapping(s, c, t.segmentSize()));
        add(ALLREDUCE, "recursive_doubling", false, false, (s, c, t) -> Allreduces.recursiveDoubling(s, c));
        add(ALLREDUCE, "ring", true, false, (s, c, t) -> Allreduces.ring(s, c));
        add(ALLREDUCE, "segmented_ring", true, false, (s, c, t) -> Allreduces.segmentedRing(s, c, t.segmentSize()));
        add(ALLREDUCE, "rabenseifner", true, false, (s, c, t) -> Allreduces.rabenseifner(s, c));

        add(ALLTOALL, "linear", false, false, (s, c, t) -> Alltoalls.linear(s, c));
        add(ALLTOALL, "pairwise", false, false, (s, c, t) -> Alltoalls.pairwise(s, c));
        add(ALLTOALL, "modified_bruck", false, false, (s, c, t) -> Alltoalls.modifiedBruck(s, c));
        add(ALLTOALL, "linear_sync", false, false, (s, c, t) -> Alltoalls.linearSync(s, c, t.maxRequests()));
        add(ALLTOALL, "two_proc", false, true, (s, c, t) -> Alltoalls.twoProc(s, c));

        add(ALLTOALLV, "basic_linear", false, false, (s, c, t) -> Alltoalls.linear(s, c));
        add(ALLTOALLV, "pairwise", false, false, (s, c, t) -> Alltoalls.pairwise(s, c));

        add(REDUCE, "linear", false, false, (s, c, t) -> Reduces.linear(s, c));
        add(REDUCE, "chain", true, false, (s, c, t) -> Reduces.chain(s, c, t.segmentSize(), t.chainFanout()));
        add(REDUCE, "pipeline", true, false, (s, c, t) -> Reduces.pipeline(s, c, t.segmentSize()));
        add(REDUCE, "binary", true, false, (s, c, t) -> Reduces.binary(s, c, t.segmentSize()));
        add(REDUCE, "binomial", true, false, (s, c, t) -> Reduces.binomial(s, c, t.segmentSize()));
        add(REDUCE, "in-order_binary", false, false, (s, c, t) -> Reduces.inOrderBinary(s, c, t.segmentSize()));
        add(REDUCE, "rabenseifner", true, false, (s, c, t) -> Reduces.rabenseifner(s, c));

        add(ALLGATHER, "linear", false, false, (s, c, t) -> Allgathers.linear(s, c));
        add(ALLGATHER, "bruck", false, false, (s, c, t) -> Allgathers.bruck(s, c));
        add(ALLGATHER, "recursive_doubling", false, false, (s, c, t) -> Allgathers.recursiveDoubling(s, c));
        add(ALLGATHER, "ring", false, false, (s, c, t) -> Allgathers.ring(s, c));
        add(ALLGATHER, "neighbor", false, false, (s, c, t) -> Allgathers.neighborExchange(s, c));
        add(ALLGATHER, "two_proc", false, true, (s, c, t) -> Allgathers.twoProc(s, c));
        add(ALLGATHER, "sparbit", false, false, (s, c, t) -> Allgathers.sparbit(s, c));

        add(ALLGATHERV, "default", false, false, (s, c, t) -> Allgathers.linear(s, c));
        add(ALLGATHERV, "bruck", false, false, (s, c, t) -> Allgathers.bruck(s, c));
        add(ALLGATHERV, "ring", false, false, (s, c, t) -> Allgathers.ring(s, c));
        add(ALLGATHERV, "neighbor", false, false, (s, c, t) -> Allgathers.neighborExchange(s, c));
        add(ALLGATHERV, "two_proc", false, true, (s, c, t) -> Allgathers.twoProc(s, c));
        add(ALLGATHERV, "sparbit", false, false, (s, c, t) -> Allgathers.sparbit(s, c));

        add(GATHER, "basic_linear", false, false, (s, c, t) -> Gathers.basicLinear(s, c));
        add(GATHER, "binomial", false, false, (s, c, t) -> Gathers.binomial(s, c));
        add(GATHER, "linear_sync", false, false, (s, c, t) -> Gathers.linearSync(s, c));
        add(GATHERV, "linear", false, false, (s, c, t) -> Gathers.linearV(s, c));

        add(SCATTER, "basic_linear", false, false, (s, c, t) -> Scatters.basicLinear(s, c));
        add(SCATTER, "binomial", false, false, (s, c, t) -> Scatters.binomial(s, c));
        add(SCATTER, "linear_nb", false, false, (s, c, t) -> Scatters.linearNb(s, c));
        add(SCATTERV, "linear", false, false, (s, c, t) -> Scatters.linearV(s, c));

        add(REDUCE_SCATTER, "non-overlapping", false, false, (s, c, t) -> ReduceScatters.nonOverlapping(s, c));
        add(REDUCE_SCATTER, "recursive_halving", true, false, (s, c, t) -> ReduceScatters.recursiveHalving(s, c));
        add(REDUCE_SCATTER, "ring", true, false, (s, c, t) -> ReduceScatters.ring(s, c));
        add(REDUCE_SCATTER, "butterfly", true, false, (s, c, t) -> ReduceScatters.butterfly(s, c));

        add(REDUCE_SCATTER_BLOCK, "basic_linear", false, false, (s, c, t) -> ReduceScatters.nonOverlapping(s, c));
        add(REDUCE_SCATTER_BLOCK, "recursive_doubling", false, false,
                (s, c, t) -> ReduceScatters.recursiveDoubling(s, c));
        add(REDUCE_SCATTER_BLOCK, "recursive_halving", true, false,
                (s, c, t) -> ReduceScatters.recursiveHalving(s, c));
        add(REDUCE_SCATTER_BLOCK, "butterfly", true, false, (s, c, t) -> ReduceScatters.butterfly(s, c));

        add(SCAN, "linear", false, false, (s, c, t) -> Scans.linear(s, c, false));
        add(SCAN, "recursive_doubling", false, false, (s, c, t) -> Scans.recursiveDoubling(s, c, false));
        add(EXSCAN, "linear", false, false, (s, c, t) -> Scans.linear(s, c, true));
        add(EXSCAN, "recursive_doubling", false, false, (s, c, t) -> Scans.recursiveDoubling(s, c, true));
    }

    private Algorithms() {
    }

    private static void add(CollFunction function, String name, boolean commutative, boolean twoRanks,
                            Algorithm.Steps steps) {
        List<Algorithm> list = ALL.computeIfAbsent(function, f -> new ArrayList<>());
        list.add(new Algorithm(function, list.size() + 1, name, commutative, twoRanks, steps));
    }

    /** The algorithms of {@code function}, numbered from 1. */
    public static List<Algorithm> of(CollFunction function) {
        return List.copyOf(ALL.getOrDefault(function, List.of()));
    }

    /** Algorithm {@code number} of {@code function}. */
    public static Optional<Algorithm> find(CollFunction function, int number) {
        List<Algorithm> list = ALL.getOrDefault(function, List.of());
        return number >= 1 && number <= list.size() ? Optional.of(list.get(number - 1)) : Optional.empty();
    }
}
