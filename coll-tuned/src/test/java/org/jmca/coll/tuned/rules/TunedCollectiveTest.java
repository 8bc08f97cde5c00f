package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.jmca.mca.coll.CollFunction;
import org.junit.jupiter.api.Test;

/** Open MPI's ids, algorithm numbers and message sizes. */
class TunedCollectiveTest {

    @Test
    void idsAreOpenMpis() {
        assertThat(Arrays.stream(TunedCollective.values()).mapToInt(TunedCollective::id))
                .containsExactly(0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15);
        assertThat(TunedCollective.byId(13)).contains(TunedCollective.REDUCE_SCATTER_BLOCK);
        assertThat(TunedCollective.byId(5)).isEmpty();
        assertThat(Collective.byId(5)).contains(UntunedCollective.ALLTOALLW);
        assertThat(Collective.all()).extracting(Collective::id).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, Collective.COUNT).boxed().toList());
    }

    @Test
    void namesAndFunctions() {
        assertThat(TunedCollective.REDUCE_SCATTER_BLOCK.configName()).isEqualTo("reduce_scatter_block");
        assertThat(TunedCollective.byName("AllReduce")).contains(TunedCollective.ALLREDUCE);
        assertThat(TunedCollective.byName("gatherv")).isEmpty();
        assertThat(Collective.byConfigName("AllReduce")).isEmpty();
        for (TunedCollective c : TunedCollective.values()) {
            assertThat(c.function().name()).isEqualTo(c.name());
            assertThat(TunedCollective.of(c.function())).contains(c);
        }
        assertThat(TunedCollective.of(CollFunction.GATHERV)).isEmpty();
    }

    @Test
    void algorithmsByNumberOrName() {
        TunedCollective allreduce = TunedCollective.ALLREDUCE;
        assertThat(allreduce.algorithmCount()).isEqualTo(6);
        assertThat(allreduce.algorithmName(4)).isEqualTo("ring");
        assertThat(allreduce.algorithmName(0)).isEqualTo("ignore");
        assertThat(allreduce.algorithmNumber("4")).isEqualTo(4);
        assertThat(allreduce.algorithmNumber(" Rabenseifner ")).isEqualTo(6);
        assertThat(allreduce.algorithmNumber("ignore")).isZero();
        assertThat(TunedCollective.REDUCE.algorithmNumber("in-order_binary")).isEqualTo(6);
        assertThat(TunedCollective.BCAST.algorithmCount()).isEqualTo(9);
        assertThat(TunedCollective.ALLGATHER.algorithmName(7)).isEqualTo("sparbit");
        assertThat(TunedCollective.SCAN.algorithmEnumerators()).extracting(Object::toString)
                .containsExactly("0:ignore", "1:linear", "2:recursive_doubling");
    }

    @Test
    void anUnknownAlgorithmListsTheValidOnes() {
        assertThatThrownBy(() -> TunedCollective.EXSCAN.algorithmNumber("3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'3' is not an algorithm of exscan: expected 0..2 or a name (0 ignore, 1 linear,"
                        + " 2 recursive_doubling)");
        assertThatThrownBy(() -> TunedCollective.EXSCAN.algorithmNumber("fast"))
                .hasMessageStartingWith("'fast' is not an algorithm of exscan");
        assertThatThrownBy(() -> TunedCollective.EXSCAN.algorithmName(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void messageSizesAsOpenMpiComputesThem() {
        assertThat(TunedCollective.BCAST.messageSize(8, 100, 16)).isEqualTo(800);
        assertThat(TunedCollective.ALLREDUCE.messageSize(8, 100, 16)).isEqualTo(800);
        assertThat(TunedCollective.REDUCE.messageSize(8, 100, 16)).isEqualTo(800);
        assertThat(TunedCollective.REDUCE_SCATTER.messageSize(8, 100, 16)).isEqualTo(800);
        assertThat(TunedCollective.ALLGATHER.messageSize(8, 100, 16)).isEqualTo(12_800);
        assertThat(TunedCollective.ALLTOALL.messageSize(8, 100, 16)).isEqualTo(12_800);
        assertThat(TunedCollective.GATHER.messageSize(8, 100, 16)).isEqualTo(12_800);
        assertThat(TunedCollective.SCATTER.messageSize(8, 100, 16)).isEqualTo(12_800);
        assertThat(TunedCollective.REDUCE_SCATTER_BLOCK.messageSize(8, 100, 16)).isEqualTo(12_800);
        assertThat(TunedCollective.ALLGATHERV.messageSize(8, 1600, 16)).isEqualTo(800);
        assertThat(TunedCollective.SCAN.messageSize(8, 100, 16)).isEqualTo(128);
        assertThat(TunedCollective.EXSCAN.messageSize(8, 100, 16)).isEqualTo(128);
        assertThat(TunedCollective.BARRIER.messageSize(8, 100, 16)).isZero();
        assertThat(TunedCollective.ALLTOALLV.messageSize(8, 100, 16)).isZero();
        assertThat(TunedCollective.ALLTOALL.messageSize(Long.MAX_VALUE / 2, 4, 2)).isEqualTo(Long.MAX_VALUE);
        assertThat(TunedCollective.ALLTOALL.messageSizeFormula())
                .isEqualTo("datatype size x count x communicator size");
    }
}
