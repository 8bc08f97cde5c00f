package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jmca.mca.os.ThreadPlacement;
import org.junit.jupiter.api.Test;

class RankShareTest {
    @Test
    void whatTheUserSetsIsLeftAlone() {
        assertThat(RankShare.leftToSize(List.of())).isEqualTo("heap,cpus");
        assertThat(RankShare.leftToSize(List.of("-Xmx2g"))).isEqualTo("cpus");
        assertThat(RankShare.leftToSize(List.of("-XX:MaxRAMPercentage=10"))).isEqualTo("cpus");
        assertThat(RankShare.leftToSize(List.of("-XX:ActiveProcessorCount=4"))).isEqualTo("heap");
        assertThat(RankShare.leftToSize(List.of("-XX:MaxHeapSize=1g", "-XX:ActiveProcessorCount=4"))).isEmpty();
        assertThat(RankShare.leftToSize(List.of("-Xms8g"))).as("an initial heap above the share").isEqualTo("cpus");
    }

    @Test
    void aRankGetsItsShareOfTheHostsCpusAndAHeapThatKeepsCompressedPointers() {
        int cpus = ThreadPlacement.allowedCpus().length;
        for (int ranks : new int[] {1, 2, cpus, 4 * cpus}) {
            List<String> options = RankShare.options(true, true, ranks);
            assertThat(options).hasSize(2);
            long heapMib = Long.parseLong(options.get(0).replaceAll("^-Xmx|m$", ""));
            assertThat(heapMib).as("ranks %d", ranks).isBetween(256L, 31L * 1024);
            assertThat(options.get(1)).isEqualTo("-XX:ActiveProcessorCount=" + Math.max(1, cpus / ranks));
        }
    }

    @Test
    void theOptionsGoRightAfterTheJavaExecutableSoThatTheUsersComeLaterAndWin() {
        List<String> command = List.of("/jdk/bin/java", "-Xmx1g", "-cp", "x", "Main");
        List<String> sized = RankShare.apply(command, Map.of(RankShare.ENV, "cpus"), 2);
        assertThat(sized.getFirst()).isEqualTo("/jdk/bin/java");
        assertThat(sized.get(1)).startsWith("-XX:ActiveProcessorCount=");
        assertThat(sized.subList(2, sized.size())).isEqualTo(command.subList(1, command.size()));
        assertThat(RankShare.apply(command, Map.of(), 2)).isEqualTo(command);
        assertThat(RankShare.apply(command, Map.of(RankShare.ENV, ""), 2)).isEqualTo(command);
    }
}
