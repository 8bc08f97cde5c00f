package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The format is told by the content, whatever the file is called. */
class RulesFilesTest {

    @TempDir
    Path dir;

    @Test
    void readsTheShippedExamplesInTheirFormats() {
        assertThat(RulesFiles.read(TestFiles.resource("classic-v2.conf")).collectives()).hasSize(3);
        assertThat(RulesFiles.read(TestFiles.resource("rules.json")).collectives()).hasSize(3);
        assertThat(RulesFiles.read(TestFiles.resource("rules.conf")).collectives()).hasSize(2);
    }

    @Test
    void classicContentIsClassicEvenInAJsonFile() {
        Path file = TestFiles.write(dir, "rules.json", "# classic after all\n\n1 6 1 0 1 0 4 0 0\n");
        assertThat(RulesFiles.read(file).lookup(TunedCollective.BARRIER, 4, 0).map(Rule::algorithm)).contains(4);
    }

    @Test
    void hoconWithoutBracesOrWithSlashCommentsIsHocon() {
        Path file = TestFiles.write(dir, "rules.txt", "// tuned by hand\ncollectives.barrier = [ { rules = [ { alg"
                + " = tree } ] } ]\n");
        assertThat(RulesFiles.read(file).lookup(TunedCollective.BARRIER, 4, 0).map(Rule::algorithm)).contains(6);
    }

    @Test
    void theContentDecidesWhichReaderReportsTheError() {
        Path classic = TestFiles.write(dir, "a.json", "1\n99\n");
        assertThatThrownBy(() -> RulesFiles.read(classic))
                .hasMessageStartingWith(classic + ":2: expected the id of collective 1 of 1");
        Path hocon = TestFiles.write(dir, "b.conf", "{\n  collectivs {}\n}\n");
        assertThatThrownBy(() -> RulesFiles.read(hocon))
                .hasMessageStartingWith(hocon + ":2: unknown key 'collectivs' in the rules file; did you mean"
                        + " 'collectives'?");
    }

    @Test
    void theFormatTest() {
        assertThat(RulesFiles.isClassic("")).isTrue();
        assertThat(RulesFiles.isClassic("rule-file-version-2\n1")).isTrue();
        assertThat(RulesFiles.isClassic("  # c\n\t 12")).isTrue();
        assertThat(RulesFiles.isClassic("# c\n{")).isFalse();
        assertThat(RulesFiles.isClassic("collectives {}")).isFalse();
        assertThat(RulesFiles.isClassic("\"collectives\": {}")).isFalse();
    }
}
