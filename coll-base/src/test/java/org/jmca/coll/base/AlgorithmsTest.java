package org.jmca.coll.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.CollFunction;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every algorithm of every collective against a sequential reference, on simulated ranks:
 * communicator sizes 1 to 9, roots first and last, counts 0, 1, odd and above the segment size,
 * int, long, double and byte sums, and a non-commutative operation where the algorithm allows it.
 */
class AlgorithmsTest {
    private static final Tuning SEGMENTED = new Tuning(64, 3, 2, 4);
    private static final int[] COUNTS = {0, 1, 7, 101};

    static Stream<Algorithm> all() {
        return Stream.of(CollFunction.values()).flatMap(f -> Algorithms.of(f).stream());
    }

    @TestFactory
    Stream<DynamicTest> everyAlgorithmAgainstTheReference() {
        return all().flatMap(algorithm -> Stream.iterate(1, n -> n <= 9, n -> n + 1).map(size ->
                DynamicTest.dynamicTest(algorithm.function().id() + " " + algorithm + " on " + size + " ranks",
                        () -> {
                            int runs = 0;
                            for (Scenario scenario : scenarios(algorithm, size)) {
                                if (scenario.applicable()) {
                                    scenario.check();
                                    runs++;
                                }
                            }
                            if (!algorithm.onlyTwoRanks() || size == 2) {
                                assertThat(runs).as("scenarios run").isPositive();
                            }
                        })));
    }

    private static List<Scenario> scenarios(Algorithm algorithm, int size) {
        List<Scenario> list = new ArrayList<>();
        for (int root : new int[] {0, size - 1}) {
            for (int count : COUNTS) {
                for (TestOps ops : TestOps.values()) {
                    for (Tuning tuning : new Tuning[] {Tuning.DEFAULT, SEGMENTED}) {
                        list.add(new Scenario(algorithm, size, root, count, ops, tuning, false));
                    }
                }
                list.add(new Scenario(algorithm, size, root, count, TestOps.INT_SUM, SEGMENTED, true));
                list.add(new Scenario(algorithm, size, root, count, TestOps.MATRIX_PRODUCT, Tuning.DEFAULT, true));
            }
            if (size == 1) {
                break;
            }
        }
        return list;
    }

    @Property(tries = 300)
    void anyAlgorithmAnySizeAnyRoot(@ForAll("algorithms") Algorithm algorithm, @ForAll @IntRange(min = 1, max = 16) int size,
                                    @ForAll @IntRange(min = 0, max = 15) int rootSeed,
                                    @ForAll @IntRange(min = 0, max = 300) int count, @ForAll TestOps ops,
                                    @ForAll boolean inPlace, @ForAll @IntRange(min = 0, max = 256) int segment) {
        Scenario scenario = new Scenario(algorithm, size, rootSeed % size, count, ops,
                new Tuning(segment, 2 + segment % 4, 1 + segment % 5, segment % 7), inPlace);
        if (scenario.applicable()) {
            scenario.check();
        }
    }

    @Provide
    Arbitrary<Algorithm> algorithms() {
        return Arbitraries.of(all().toList());
    }

    @Test
    void everyFamilyHasOpenMpisNumberOfAlgorithms() {
        assertThat(Algorithms.of(CollFunction.BCAST)).hasSize(9);
        assertThat(Algorithms.of(CollFunction.ALLREDUCE)).hasSize(6);
        assertThat(Algorithms.of(CollFunction.ALLTOALL)).hasSize(5);
        assertThat(Algorithms.of(CollFunction.BARRIER)).hasSize(6);
        assertThat(Algorithms.of(CollFunction.REDUCE)).hasSize(7);
        assertThat(Algorithms.of(CollFunction.ALLGATHER)).hasSize(7);
        assertThat(Algorithms.of(CollFunction.ALLGATHERV)).hasSize(6);
        assertThat(Algorithms.of(CollFunction.GATHER)).hasSize(3);
        assertThat(Algorithms.of(CollFunction.SCATTER)).hasSize(3);
        assertThat(Algorithms.of(CollFunction.REDUCE_SCATTER)).hasSize(4);
        assertThat(Algorithms.of(CollFunction.REDUCE_SCATTER_BLOCK)).hasSize(4);
        assertThat(Algorithms.of(CollFunction.SCAN)).hasSize(2);
        assertThat(Algorithms.of(CollFunction.EXSCAN)).hasSize(2);
        assertThat(Algorithms.find(CollFunction.ALLREDUCE, 4)).get().extracting(Algorithm::name).isEqualTo("ring");
        assertThat(Algorithms.find(CollFunction.BCAST, 10)).isEmpty();
    }
}
