package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.jmca.coll.tuned.rules.RankDistribution.ANY;
import static org.jmca.coll.tuned.rules.RankDistribution.ONE_PER_NODE;
import static org.jmca.coll.tuned.rules.RankDistribution.SINGLE_NODE;
import static org.jmca.coll.tuned.rules.TunedCollective.ALLREDUCE;
import static org.jmca.coll.tuned.rules.TunedCollective.ALLTOALL;
import static org.jmca.coll.tuned.rules.TunedCollective.BCAST;
import static org.jmca.coll.tuned.rules.TunedCollective.REDUCE_SCATTER_BLOCK;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Open MPI's JSON format, read as HOCON: first match, names or numbers, sizes, defaults. */
class HoconRulesFileTest {

    private final Path json = TestFiles.resource("rules.json");
    private final Path hocon = TestFiles.resource("rules.conf");

    @Test
    void readsAJsonFileWithItsDefaults() {
        RulesTable table = HoconRulesFile.read(json);
        assertThat(table.collectives()).containsExactly(ALLREDUCE, BCAST, UntunedCollective.GATHERV);
        assertThat(table.sections(ALLREDUCE)).extracting(Section::commSizeMin, Section::commSizeMax,
                        Section::distribution, Section::origin)
                .containsExactly(
                        tuple(64, 128, ANY, json + ":7"),
                        tuple(2, Integer.MAX_VALUE, SINGLE_NODE, json + ":16"),
                        tuple(0, Integer.MAX_VALUE, ANY, json + ":21"));
        assertThat(table.sections(ALLREDUCE).get(1).rules())
                .containsExactly(new Rule(0, Long.MAX_VALUE, 6, 4, 1024, 0, json + ":19"));
    }

    @Test
    void algorithmsAreNamesOrNumbers() {
        RulesTable table = HoconRulesFile.read(json);
        assertThat(algorithm(table, ALLREDUCE, 64, 512)).contains(2);
        assertThat(table.lookup(ALLREDUCE, 64, 512_000))
                .contains(new Rule(512_000, Long.MAX_VALUE, 3, 0, 0, 8, json + ":12"));
        assertThat(algorithm(table, BCAST, 3, 0)).contains(7);
    }

    @Test
    void theFirstMatchingSectionAndRuleApply() {
        RulesTable table = HoconRulesFile.read(json);
        // 100 B matches only the third rule of the first section, which overlaps the first two
        assertThat(algorithm(table, ALLREDUCE, 100, 100)).contains(4);
        // the first section holds the communicator, so the later sections are not tried
        assertThat(algorithm(table, ALLREDUCE, 128, 512)).contains(2);
        // below 64 ranks, the single-node section applies only to single-node communicators
        assertThat(algorithm(table, ALLREDUCE, 8, 100, SINGLE_NODE)).contains(6);
        assertThat(algorithm(table, ALLREDUCE, 8, 100, ANY)).contains(0);
        // the last section has a rule only up to 1023 B: above, no rule, and no later section is tried
        assertThat(table.lookup(ALLREDUCE, 8, 1024)).isEmpty();
    }

    @Test
    void readsHoconWithCommentsUnquotedKeysSizesAndTrailingCommas() {
        RulesTable table = HoconRulesFile.read(hocon);
        assertThat(table.collectives()).containsExactly(ALLTOALL, REDUCE_SCATTER_BLOCK);
        assertThat(table.sections(ALLTOALL).getFirst().rules()).containsExactly(
                new Rule(0, 65536, 3, 0, 0, 0, hocon + ":10"),
                new Rule(65536, 1 << 20, 2, 0, 0, 4, hocon + ":11"),
                new Rule(1 << 20, Long.MAX_VALUE, 4, 0, 128 * 1024, 0, hocon + ":12"));
        assertThat(algorithm(table, ALLTOALL, 8, 65536)).contains(3);
        assertThat(algorithm(table, ALLTOALL, 8, 65537)).contains(2);
        assertThat(table.lookup(ALLTOALL, 7, 0)).isEmpty();
        assertThat(table.sections(REDUCE_SCATTER_BLOCK)).singleElement()
                .satisfies(s -> assertThat(s.distribution()).isEqualTo(ONE_PER_NODE));
        assertThat(algorithm(table, REDUCE_SCATTER_BLOCK, 4, 0, ONE_PER_NODE)).contains(4);
        assertThat(algorithm(table, REDUCE_SCATTER_BLOCK, 4, 0, ANY)).isEmpty();
    }

    @Test
    void collectivesWithoutTunedAlgorithmsAreStored() {
        RulesTable table = HoconRulesFile.read(json);
        assertThat(table.sections(UntunedCollective.GATHERV).getFirst().rules().getFirst().algorithm()).isEqualTo(3);
    }

    private static Optional<Integer> algorithm(RulesTable table, TunedCollective c, int commSize, long msgSize) {
        return table.lookup(c, commSize, msgSize).map(Rule::algorithm);
    }

    private static Optional<Integer> algorithm(RulesTable table, TunedCollective c, int commSize, long msgSize,
                                               RankDistribution layout) {
        return table.lookup(c, commSize, msgSize, layout).map(Rule::algorithm);
    }
}
