package org.jmca.progress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HelperCoreTest {
    private static final int[] NONE = {};

    @Test
    void eachHelperTakesASpareCpuOfItsOwnWhereThereAreEnough() {
        int[] sixteen = java.util.stream.IntStream.range(0, 16).toArray();
        assertThat(HelperCore.choose(sixteen, 2, 0, NONE)).isEqualTo(new HelperCore(new int[] {2}, true));
        assertThat(HelperCore.choose(sixteen, 2, 1, NONE)).isEqualTo(new HelperCore(new int[] {3}, true));
        assertThat(HelperCore.choose(sixteen, 8, 7, NONE)).isEqualTo(new HelperCore(new int[] {15}, true));
    }

    @Test
    void helpersShareTheSpareCpusWhenThereAreFewerThanRanks() {
        int[] ten = java.util.stream.IntStream.range(0, 10).toArray();
        assertThat(HelperCore.choose(ten, 8, 0, NONE)).isEqualTo(new HelperCore(new int[] {8}, false));
        assertThat(HelperCore.choose(ten, 8, 3, NONE)).isEqualTo(new HelperCore(new int[] {9}, false));
    }

    @Test
    void withNoSpareCpuTheHelperMayRunOnAnyCpuOfTheProcessNotOnlyOnItsRanks() {
        assertThat(HelperCore.choose(new int[] {0, 1}, 2, 1, NONE)).isEqualTo(new HelperCore(new int[] {0, 1}, false));
        assertThat(HelperCore.choose(new int[] {0, 1}, 4, 3, NONE)).isEqualTo(new HelperCore(new int[] {0, 1}, false));
    }

    @Test
    void theSpareCpusFollowTheAllowedOnesNotTheirNumbers() {
        int[] allowed = {4, 5, 6, 7, 12, 13};
        assertThat(HelperCore.choose(allowed, 3, 0, NONE)).isEqualTo(new HelperCore(new int[] {7}, true));
        assertThat(HelperCore.choose(allowed, 3, 2, NONE)).isEqualTo(new HelperCore(new int[] {13}, true));
    }

    @Test
    void namedCpusAreUsedAsGivenAndAreTheHelpersAloneOnlyOffTheRanksCpus() {
        int[] sixteen = java.util.stream.IntStream.range(0, 16).toArray();
        assertThat(HelperCore.choose(sixteen, 2, 0, new int[] {2, 3})).isEqualTo(new HelperCore(new int[] {2}, true));
        assertThat(HelperCore.choose(sixteen, 2, 0, new int[] {1, 0})).isEqualTo(new HelperCore(new int[] {1}, false));
        assertThat(HelperCore.choose(sixteen, 2, 1, new int[] {5})).isEqualTo(new HelperCore(new int[] {5}, false));
    }
}
