package org.jmca.coll.tuned.rules;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.param.ParamType;

/**
 * The collectives coll/tuned has algorithms for, with Open MPI's collective ids and algorithm
 * numbers: algorithm n is index n, and 0 ("ignore") lets the fixed rules decide.
 */
public enum TunedCollective implements Collective {
    ALLGATHER(0, SizeBasis.COUNT_TIMES_COMM,
            "linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc", "sparbit"),
    ALLGATHERV(1, SizeBasis.COUNT_PER_RANK,
            "default", "bruck", "ring", "neighbor", "two_proc", "sparbit"),
    ALLREDUCE(2, SizeBasis.COUNT,
            "basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring", "rabenseifner"),
    ALLTOALL(3, SizeBasis.COUNT_TIMES_COMM,
            "linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"),
    ALLTOALLV(4, SizeBasis.ZERO,
            "basic_linear", "pairwise"),
    BARRIER(6, SizeBasis.ZERO,
            "linear", "double_ring", "recursive_doubling", "bruck", "two_proc", "tree"),
    BCAST(7, SizeBasis.COUNT,
            "basic_linear", "chain", "pipeline", "split_binary_tree", "binary_tree", "binomial", "knomial",
            "scatter_allgather", "scatter_allgather_ring"),
    EXSCAN(8, SizeBasis.COMM_ONLY,
            "linear", "recursive_doubling"),
    GATHER(9, SizeBasis.COUNT_TIMES_COMM,
            "basic_linear", "binomial", "linear_sync"),
    REDUCE(11, SizeBasis.COUNT,
            "linear", "chain", "pipeline", "binary", "binomial", "in-order_binary", "rabenseifner"),
    REDUCE_SCATTER(12, SizeBasis.COUNT,
            "non-overlapping", "recursive_halving", "ring", "butterfly"),
    REDUCE_SCATTER_BLOCK(13, SizeBasis.COUNT_TIMES_COMM,
            "basic_linear", "recursive_doubling", "recursive_halving", "butterfly"),
    SCAN(14, SizeBasis.COMM_ONLY,
            "linear", "recursive_doubling"),
    SCATTER(15, SizeBasis.COUNT_TIMES_COMM,
            "basic_linear", "binomial", "linear_nb");

    /** The name of algorithm 0, as Open MPI's coll_tuned_*_algorithm enumerations call it. */
    static final String IGNORE = "ignore";

    private final int id;
    private final SizeBasis sizeBasis;
    private final String[] algorithms;

    TunedCollective(int id, SizeBasis sizeBasis, String... algorithms) {
        this.id = id;
        this.sizeBasis = sizeBasis;
        this.algorithms = algorithms;
    }

    @Override
    public int id() {
        return id;
    }

    /** "reduce_scatter_block": the name in coll_tuned_&lt;configName&gt;_algorithm and in JSON rules. */
    @Override
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mca-api constant of the same name. */
    public CollFunction function() {
        return CollFunction.valueOf(name());
    }

    /** How many algorithms there are; they are numbered 1..algorithmCount(). */
    public int algorithmCount() {
        return algorithms.length;
    }

    /** The name of algorithm {@code n}; "ignore" for 0. */
    public String algorithmName(int n) {
        if (!isAlgorithm(n)) {
            throw new IllegalArgumentException(configName() + " has no algorithm " + n + ": expected "
                    + algorithmChoices());
        }
        return n == 0 ? IGNORE : algorithms[n - 1];
    }

    @Override
    public boolean isAlgorithm(int n) {
        return n >= 0 && n <= algorithms.length;
    }

    @Override
    public int algorithmNumber(String nameOrNumber) {
        String wanted = nameOrNumber.strip();
        if (!wanted.isEmpty() && wanted.chars().allMatch(Character::isDigit)) {
            int n = wanted.length() > 9 ? -1 : Integer.parseInt(wanted);
            if (isAlgorithm(n)) {
                return n;
            }
        } else {
            Optional<Integer> byName = IntStream.rangeClosed(0, algorithms.length).boxed()
                    .filter(n -> algorithmName(n).equalsIgnoreCase(wanted))
                    .findFirst();
            if (byName.isPresent()) {
                return byName.get();
            }
        }
        throw new IllegalArgumentException("'" + nameOrNumber + "' is not an algorithm of " + configName()
                + ": expected " + algorithmChoices());
    }

    /** "0..6 or a name (0 ignore, 1 basic_linear, ..., 6 rabenseifner)". */
    @Override
    public String algorithmChoices() {
        return "0.." + algorithms.length + " or a name (" + algorithmList() + ")";
    }

    /** The algorithms with their numbers, 0 "ignore" first, for a coll_tuned_&lt;name&gt;_algorithm parameter. */
    public List<ParamType.Enumerator> algorithmEnumerators() {
        return IntStream.rangeClosed(0, algorithms.length)
                .mapToObj(n -> new ParamType.Enumerator(n, algorithmName(n)))
                .toList();
    }

    /** "0 ignore, 1 basic_linear, ..., 6 rabenseifner". */
    public String algorithmList() {
        return IntStream.rangeClosed(0, algorithms.length)
                .mapToObj(n -> n + " " + algorithmName(n))
                .collect(Collectors.joining(", "));
    }

    /**
     * The message size a rule's msg_size range is compared with, as Open MPI's
     * coll_tuned_decision_dynamic.c computes it (see {@link #messageSizeFormula()}); products
     * that overflow saturate at Long.MAX_VALUE, above every finite rule.
     *
     * @param datatypeSize the size in bytes of one element of the (send) datatype
     * @param count        the count the formula names: count for bcast, allreduce, reduce, exscan
     *                     and scan; the send count for allgather, alltoall, gather and scatter;
     *                     the receive count per block for reduce_scatter_block; the sum of the
     *                     receive counts for allgatherv and reduce_scatter; ignored for barrier
     *                     and alltoallv
     * @param commSize     the communicator size
     */
    public long messageSize(long datatypeSize, long count, int commSize) {
        if (datatypeSize < 0 || count < 0 || commSize < 0) {
            throw new IllegalArgumentException("negative datatype size, count or communicator size: "
                    + datatypeSize + ", " + count + ", " + commSize);
        }
        return sizeBasis.messageSize(datatypeSize, count, commSize);
    }

    /** The formula of {@link #messageSize}, in words, for people reading a rules table. */
    public String messageSizeFormula() {
        return sizeBasis.formula;
    }

    /** Whether Open MPI looks rules up with message size 0 whatever the call (barrier, alltoallv). */
    boolean ignoresMessageSize() {
        return sizeBasis == SizeBasis.ZERO;
    }

    public static Optional<TunedCollective> byId(int id) {
        return Arrays.stream(values()).filter(c -> c.id == id).findFirst();
    }

    /** By name, in any case: "allreduce", "REDUCE_SCATTER". */
    public static Optional<TunedCollective> byName(String name) {
        return Arrays.stream(values()).filter(c -> c.configName().equalsIgnoreCase(name.strip())).findFirst();
    }

    public static Optional<TunedCollective> of(CollFunction function) {
        return Arrays.stream(values()).filter(c -> c.function() == function).findFirst();
    }

    /**
     * The message-size formulas of Open MPI main's coll_tuned_decision_dynamic.c. Open MPI
     * 5.0.x differs in three places: gather and scatter leave out the count (datatype size x
     * communicator size), and allgatherv does not divide by the communicator size.
     */
    private enum SizeBasis {
        /** bcast, allreduce, reduce; reduce_scatter with the sum of its receive counts. */
        COUNT("datatype size x count"),
        /** allgather, alltoall, gather, scatter, reduce_scatter_block. */
        COUNT_TIMES_COMM("datatype size x count x communicator size"),
        /** allgatherv: the total received, averaged over the ranks. */
        COUNT_PER_RANK("datatype size x sum of receive counts / communicator size"),
        /** exscan and scan: Open MPI ignores the count here. */
        COMM_ONLY("datatype size x communicator size (the count is not used)"),
        /** barrier, and alltoallv whose total Open MPI does not know: always 0. */
        ZERO("always 0");

        private final String formula;

        SizeBasis(String formula) {
            this.formula = formula;
        }

        long messageSize(long datatypeSize, long count, int commSize) {
            return switch (this) {
                case COUNT -> saturatedProduct(datatypeSize, count);
                case COUNT_TIMES_COMM -> saturatedProduct(saturatedProduct(datatypeSize, count), commSize);
                case COUNT_PER_RANK -> commSize == 0 ? 0 : saturatedProduct(datatypeSize, count) / commSize;
                case COMM_ONLY -> saturatedProduct(datatypeSize, commSize);
                case ZERO -> 0;
            };
        }

        private static long saturatedProduct(long a, long b) {
            try {
                return Math.multiplyExact(a, b);
            } catch (ArithmeticException overflow) {
                return Long.MAX_VALUE;
            }
        }
    }
}
