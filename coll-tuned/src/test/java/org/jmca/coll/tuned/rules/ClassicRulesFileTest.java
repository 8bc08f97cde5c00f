package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.jmca.coll.tuned.rules.TunedCollective.ALLREDUCE;
import static org.jmca.coll.tuned.rules.TunedCollective.ALLTOALL;
import static org.jmca.coll.tuned.rules.TunedCollective.BARRIER;
import static org.jmca.coll.tuned.rules.TunedCollective.BCAST;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The classic format read as Open MPI reads it: lookups give Open MPI's answers. */
class ClassicRulesFileTest {

    private final Path file = TestFiles.resource("classic-v2.conf");
    private final RulesTable table = ClassicRulesFile.read(file);

    @TempDir
    Path dir;

    @Test
    void readsEveryCollectiveOfTheFileSkippingComments() {
        assertThat(table.source()).isEqualTo(file);
        assertThat(table.collectives()).containsExactly(ALLREDUCE, ALLTOALL, BCAST);
        assertThat(table.sections(BARRIER)).isEmpty();
    }

    @Test
    void sectionsBecomeRangesUpToTheNextCommunicatorSize() {
        assertThat(table.sections(ALLREDUCE))
                .extracting(Section::commSizeMin, Section::commSizeMax, Section::origin)
                .containsExactly(
                        tuple(0, 15, file + ":7"),
                        tuple(16, Integer.MAX_VALUE, file + ":11"));
    }

    @Test
    void versionTwoReadsTheFifthFieldOnlyWhenTheRuleLineHasOne() {
        assertThat(table.sections(ALLREDUCE).getFirst().rules()).containsExactly(
                new Rule(0, 8191, 3, 0, 0, 0, file + ":9"),
                new Rule(8192, Long.MAX_VALUE, 4, 0, 0, 16, file + ":10"));
        assertThat(table.sections(ALLTOALL).getFirst().rules())
                .containsExactly(new Rule(0, Long.MAX_VALUE, 2, 0, 0, 0, file + ":28"));
    }

    @Test
    void aCommunicatorBelowEverySectionUsesTheFirstSection() {
        assertThat(algorithmAndLine(ALLREDUCE, 2, 100)).contains("3@9");
        assertThat(algorithmAndLine(ALLTOALL, 4, 1 << 20)).contains("2@28");
    }

    @Test
    void aCommunicatorUsesTheLastSectionAtOrBelowItsSize() {
        assertThat(algorithmAndLine(ALLREDUCE, 4, 100)).contains("3@9");
        assertThat(algorithmAndLine(ALLREDUCE, 15, 100)).contains("3@9");
        assertThat(algorithmAndLine(ALLREDUCE, 16, 100)).contains("1@13");
        assertThat(algorithmAndLine(ALLREDUCE, 100_000, 100)).contains("1@13");
    }

    @Test
    void aMessageUsesTheLastRuleAtOrBelowItsSize() {
        assertThat(algorithmAndLine(ALLREDUCE, 4, 8191)).contains("3@9");
        assertThat(algorithmAndLine(ALLREDUCE, 4, 8192)).contains("4@10");
        assertThat(algorithmAndLine(ALLREDUCE, 16, 0)).contains("1@13");
        assertThat(algorithmAndLine(ALLREDUCE, 16, 1023)).contains("1@13");
        assertThat(algorithmAndLine(ALLREDUCE, 16, 1024)).contains("6@14");
        assertThat(algorithmAndLine(ALLREDUCE, 16, 1_048_575)).contains("6@14");
        assertThat(algorithmAndLine(ALLREDUCE, 16, Long.MAX_VALUE)).contains("5@15");
        assertThat(table.lookup(ALLREDUCE, 16, 1 << 20)).contains(
                new Rule(1_048_576, Long.MAX_VALUE, 5, 0, 65536, 4, file + ":15"));
        assertThat(table.lookup(BCAST, 1, 100)).contains(new Rule(0, 65535, 6, 2, 0, 0, file + ":21"));
        assertThat(algorithmAndLine(BCAST, 1, 65536)).contains("3@22");
    }

    @Test
    void aCollectiveTheFileDoesNotNameHasNoRule() {
        assertThat(table.lookup(BARRIER, 8, 0)).isEmpty();
    }

    @Test
    void versionOneHasFourFieldsAndIgnoresLineBreaks() {
        Path oneLine = TestFiles.write(dir, "one-line.conf", "1 2 1 8 2 0 1 0 0 100 4 0 0\n");
        RulesTable read = ClassicRulesFile.read(oneLine);
        assertThat(read.sections(ALLREDUCE).getFirst().rules()).containsExactly(
                new Rule(0, 99, 1, 0, 0, 0, oneLine + ":1"),
                new Rule(100, Long.MAX_VALUE, 4, 0, 0, 0, oneLine + ":1"));
    }

    @Test
    void numbersMayBeHexadecimalAsScanfReadsThem() {
        Path hex = TestFiles.write(dir, "hex.conf", "1\n7 1 0 2\n0 1 0 0\n0x400 0x6 0 0x2000\n");
        assertThat(ClassicRulesFile.read(hex).lookup(BCAST, 4, 1024))
                .contains(new Rule(1024, Long.MAX_VALUE, 6, 0, 8192, 0, hex + ":4"));
    }

    @Test
    void aCommentMayFollowANumberWithoutABlank() {
        Path tight = TestFiles.write(dir, "tight.conf", "1#collectives\n6#barrier\n1\n0\n1\n0 4 0 0#bruck\n");
        assertThat(ClassicRulesFile.read(tight).lookup(BARRIER, 2, 0).map(Rule::algorithm)).contains(4);
    }

    @Test
    void collectivesWithoutTunedAlgorithmsAreStoredAsWritten() {
        Path gatherv = TestFiles.write(dir, "gatherv.conf", "1\n10 1 0 1\n0 17 0 0\n");
        RulesTable read = ClassicRulesFile.read(gatherv);
        assertThat(read.collectives()).containsExactly(UntunedCollective.GATHERV);
        assertThat(read.sections(UntunedCollective.GATHERV).getFirst().rules().getFirst().algorithm()).isEqualTo(17);
    }

    @Test
    void sectionsAndCollectivesMayHaveNoRules() {
        Path empty = TestFiles.write(dir, "empty-sections.conf", "2\n2 0\n7 1 4 0\n");
        RulesTable read = ClassicRulesFile.read(empty);
        assertThat(read.sections(ALLREDUCE)).isEmpty();
        assertThat(read.sections(BCAST)).singleElement().satisfies(s -> assertThat(s.rules()).isEmpty());
        assertThat(read.lookup(BCAST, 8, 0)).isEmpty();
    }

    /** "algorithm@line" of the rule a call finds. */
    private Optional<String> algorithmAndLine(TunedCollective collective, int commSize, long messageSize) {
        return table.lookup(collective, commSize, messageSize)
                .map(r -> r.algorithm() + "@" + r.origin().substring(r.origin().lastIndexOf(':') + 1));
    }
}
