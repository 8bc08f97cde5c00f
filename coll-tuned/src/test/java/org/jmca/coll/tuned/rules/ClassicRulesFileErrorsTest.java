package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every problem of a classic file is an error at its line, saying what was expected and found. */
class ClassicRulesFileErrorsTest {

    @TempDir
    Path dir;

    @Test
    void anAlgorithmOutsideTheCollectivesAlgorithms() {
        readingFails("""
                1       # collectives
                2       # allreduce
                1
                8       # communicator size
                2
                0 1 0 0
                1024 9 0 0
                """)
                .hasMessage(file() + ":7: expected the algorithm for message size 1024 of allreduce (collective 2),"
                        + " communicator size 8: a number 0..6, found 9 (allreduce has 0 ignore, 1 basic_linear,"
                        + " 2 nonoverlapping, 3 recursive_doubling, 4 ring, 5 segmented_ring, 6 rabenseifner)");
    }

    @Test
    void theFileEndingBeforeTheAnnouncedRules() {
        readingFails("""
                1
                2
                2
                4
                1
                0 1 0 0
                16
                3
                0 1 0 0
                # more to come
                """)
                .hasMessage(file() + ":10: the file ends but allreduce's section for communicator size 16"
                        + " announced 3 message-size rules and has 1");
    }

    @Test
    void theFileEndingInsideARule() {
        readingFails("1\n7\n1\n0\n1\n0 6 2")
                .hasMessage(file() + ":6: the file ends where the segment size for message size 0 of bcast"
                        + " (collective 7), communicator size 0 belongs");
    }

    @Test
    void theFileEndingBeforeTheAnnouncedCollectives() {
        readingFails("2\n6 0\n")
                .hasMessage(file() + ":2: the file ends but it announced 2 collectives and has 1");
    }

    @Test
    void anEmptyFile() {
        readingFails("# nothing but a comment\n")
                .hasMessage(file() + ":1: the file has no rules: expected the number of collectives");
    }

    @Test
    void anUnknownCollectiveId() {
        readingFails("1\n\n22\n")
                .hasMessageStartingWith(file() + ":3: expected the id of collective 1 of 1: a number 0..21, found 22"
                        + " (0 allgather, 1 allgatherv, 2 allreduce")
                .hasMessageEndingWith("21 neighbor_alltoallw)");
    }

    @Test
    void moreCollectivesThanOpenMpiHas() {
        readingFails("23\n").hasMessage(file() + ":1: expected the number of collectives: a number 0..22, found 23");
    }

    @Test
    void aNegativeNumber() {
        readingFails("1\n2\n1\n-4\n")
                .hasMessage(file() + ":4: expected the communicator size of section 1 of allreduce (collective 2):"
                        + " a number 0 or more, found -4");
    }

    @Test
    void aNumberBeyondWhatOpenMpiStores() {
        readingFails("1\n2\n1\n3000000000\n")
                .hasMessage(file() + ":4: expected the communicator size of section 1 of allreduce (collective 2):"
                        + " a number 0..2147483647, found 3000000000");
    }

    @Test
    void aWordThatIsNoNumber() {
        readingFails("1\n2\n1\n8\nthree\n")
                .hasMessage(file() + ":5: expected the number of message-size rules of allreduce's section for"
                        + " communicator size 8: a number 0 or more, found 'three'");
    }

    @Test
    void aNumberWithALeadingZeroThatScanfReadsAsOctal() {
        readingFails("1\n2\n1\n010\n")
                .hasMessageStartingWith(file() + ":4: expected the communicator size of section 1")
                .hasMessageContaining("found 010, which Open MPI reads as the octal number 8");
    }

    @Test
    void communicatorSizesThatDoNotAscend() {
        readingFails("1\n2\n2\n16\n1\n0 1 0 0\n8\n1\n0 1 0 0\n")
                .hasMessage(file() + ":7: expected a communicator size above 16 (the section at line 4) for section 2"
                        + " of allreduce (collective 2), found 8: sizes must ascend, since Open MPI stops at the"
                        + " first size above the communicator's");
    }

    @Test
    void messageSizesThatDoNotAscend() {
        readingFails("1\n2\n1\n8\n3\n0 1 0 0\n1024 2 0 0\n1024 3 0 0\n")
                .hasMessage(file() + ":8: expected a message size above 1024 (the rule at line 7) for rule 3 of"
                        + " allreduce's section for communicator size 8, found 1024: sizes must ascend, since"
                        + " Open MPI stops at the first size above the message's");
    }

    @Test
    void aFirstRuleNotForMessageSizeZero() {
        readingFails("1\n2\n1\n8\n1\n64 1 0 0\n")
                .hasMessage(file() + ":6: expected message size 0 for the first rule of allreduce's section for"
                        + " communicator size 8, found 64: Open MPI requires every section to start with a rule"
                        + " for size 0");
    }

    @Test
    void aCollectiveGivenTwice() {
        readingFails("2\n6 0\n6 0\n")
                .hasMessage(file() + ":3: barrier (collective 6) has rules already at line 2; Open MPI would"
                        + " silently use only the later block: merge the two");
    }

    @Test
    void wordsAfterTheAnnouncedCollectives() {
        readingFails("1\n6 0\n7 0\n")
                .hasMessage(file() + ":3: expected the end of the file after the 1 collectives it announced,"
                        + " found '7'");
    }

    @Test
    void aVersionMarkerThatIsNotTheFirstThingInTheFile() {
        readingFails("# tuned for our cluster\nrule-file-version-2\n0\n")
                .hasMessage(file() + ":2: 'rule-file-version-2' must be the very first thing in the file, before"
                        + " any blank or comment: Open MPI recognises it only there");
    }

    @Test
    void anUnknownVersion() {
        readingFails("rule-file-version-3\n0\n")
                .hasMessage(file() + ":1: expected rule-file-version-1 or rule-file-version-2, found"
                        + " 'rule-file-version-3' (Open MPI reads every version above 1 as 2)");
    }

    @Test
    void aFifthFieldWithoutVersionTwoIsExplained() {
        readingFails("1\n2\n1\n8\n2\n0 1 0 0 4\n1024 2 0 0 4\n")
                // Open MPI reads the first line's 4 as the next rule's message size, then 1024 as its algorithm
                .hasMessageStartingWith(file() + ":7: expected the algorithm for message size 4 of allreduce"
                        + " (collective 2), communicator size 8: a number 0..6, found 1024")
                .hasMessageContaining("without a rule-file-version-2 first line");
    }

    @Test
    void aJsonFileGivenToTheClassicReader() {
        readingFails("{ \"collectives\": {} }\n")
                .hasMessageContaining(file() + ":1: expected the number of collectives: a number 0..22, found '{'")
                .hasMessageContaining("looks like a JSON/HOCON rules file");
    }

    @Test
    void aMissingFile() {
        Path missing = dir.resolve("missing.conf");
        assertThatThrownBy(() -> ClassicRulesFile.read(missing))
                .isInstanceOf(RulesFileException.class)
                .hasMessage("cannot read rules file " + missing + ": no such file");
    }

    @Test
    void aDirectory() {
        assertThatThrownBy(() -> ClassicRulesFile.read(dir))
                .isInstanceOf(RulesFileException.class)
                .hasMessage("cannot read rules file " + dir + ": it is a directory");
    }

    private Path file() {
        return dir.resolve("rules.conf");
    }

    private AbstractThrowableAssert<?, ? extends Throwable> readingFails(String text) {
        Path written = TestFiles.write(dir, "rules.conf", text);
        return assertThatThrownBy(() -> ClassicRulesFile.read(written)).isInstanceOf(RulesFileException.class);
    }
}
