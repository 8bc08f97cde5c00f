package org.jmca.coll.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shipped selection map, a user's replacement, and the errors a malformed one gives. */
class SelectionMapTest {
    @TempDir
    Path dir;

    @Test
    void theShippedMapServesEveryCollectiveAtEverySize() {
        SelectionMap map = SelectionMap.load(null);
        for (CollFunction function : CollFunction.values()) {
            for (int size : new int[] {2, 3, 8, 64}) {
                for (long bytes : new long[] {0, 1, 1024, 65_536, 1L << 22}) {
                    SelectionMap.Rule rule = map.choose(function, size, bytes);
                    assertThat(rule.commSizeMin()).isLessThanOrEqualTo(size);
                    assertThat(rule.msgSizeMin()).isLessThanOrEqualTo(bytes);
                    assertThat(SelectionMap.names(function)).contains(rule.alg());
                }
            }
        }
    }

    @Test
    void theRuleWithTheLargestThresholdsBelowTheCallDecides() {
        SelectionMap map = SelectionMap.load(null);
        assertThat(map.choose(CollFunction.BCAST, 4, 100).alg()).isEqualTo("binomial");
        assertThat(map.choose(CollFunction.BCAST, 4, 8192).alg()).isEqualTo("binary");
        assertThat(map.choose(CollFunction.BCAST, 4, 4 << 20).alg()).isEqualTo("pipeline");
        assertThat(map.choose(CollFunction.GATHER, 8, 1023).alg()).isEqualTo("binomial");
        assertThat(map.choose(CollFunction.GATHER, 8, 1024).alg()).isEqualTo("basic_linear");
    }

    @Test
    void aUserMapReplacesTheCollectivesItNamesAndKeepsTheOthers() throws IOException {
        Path file = dir.resolve("map.conf");
        Files.writeString(file, """
                # large communicators pipeline from 1 KiB
                bcast = [
                  { alg = binomial }
                  { comm_size_min = 4, msg_size_min = 1k, alg = nary, segment = 8k, fanout = 3 }
                ]
                """);
        SelectionMap map = SelectionMap.load(file);
        SelectionMap.Rule rule = map.choose(CollFunction.BCAST, 6, 4096);
        assertThat(rule.alg()).isEqualTo("nary");
        assertThat(rule.segment()).isEqualTo(8192);
        assertThat(rule.fanout()).isEqualTo(3);
        assertThat(rule.origin()).isEqualTo(file + ":4");
        assertThat(map.choose(CollFunction.BCAST, 3, 4096).alg()).isEqualTo("binomial");
        assertThat(map.choose(CollFunction.GATHER, 8, 1024).origin()).startsWith(SelectionMap.SHIPPED);
        assertThat(map.lines()).contains("  bcast:", "    from 4 ranks, from 1k B: nary, segment 8k, fan-out 3  ["
                + file + ":4]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown collective   | brodcast = [ { alg = binomial } ]                          | 1 | unknown collective 'brodcast'",
        "unknown algorithm    | bcast = [\\n  { alg = quantum }\\n]                          | 2 | bcast has no algorithm 'quantum'; it has binary, binomial",
        "unknown key          | reduce = [\\n  { alg = binomial, segsize = 8k }\\n]          | 2 | unknown key 'segsize'",
        "missing algorithm    | reduce = [ { msg_size_min = 0 } ]                          | 1 | needs alg = <name>",
        "bad size             | bcast = [\\n { alg = binomial, msg_size_min = lots }\\n]      | 2 | msg_size_min = \"lots\" is not a size",
        "negative             | bcast = [\\n { alg = binomial, comm_size_min = -3 }\\n]       | 2 | must be at least 1",
        "two rules alike      | bcast = [\\n { alg = binomial }\\n { alg = binary }\\n]        | 3 | two rules for communicators from 2 ranks",
        "not a list           | bcast = binomial                                           | 1 | must be a list of rules",
        "not HOCON            | bcast = [ { alg = binomial }                               | 2 | not a valid HOCON table",
    })
    void aMalformedMapIsAnErrorWithFileAndLine(String name, String text, int line, String reason) throws IOException {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, text.strip().replace("\\n", "\n") + "\n");
        assertThatThrownBy(() -> SelectionMap.load(file)).isInstanceOf(McaException.class)
                .hasMessageStartingWith(file + ":" + line + ": ").hasMessageContaining(reason);
    }

    private static org.jmca.mca.coll.CollCommunicator communicator(java.util.Map<String, String> hints) {
        return org.jmca.mca.contract.TestCommunicator.of("COMM_B", 4, hints);
    }

    @Test
    void anInfoKeyForcesItsCollectiveOnOneCommunicator() {
        SelectionMap shipped = SelectionMap.load(null);
        SelectionMap forced = shipped.forcedBy(communicator(java.util.Map.of("coll_gm_bcast", "pipeline:64k")));

        SelectionMap.Rule rule = forced.choose(CollFunction.BCAST, 4, 8);
        assertThat(rule.alg()).isEqualTo("pipeline");
        assertThat(rule.segment()).isEqualTo(65536);
        assertThat(forced.choose(CollFunction.ALLREDUCE, 4, 8)).isEqualTo(shipped.choose(CollFunction.ALLREDUCE, 4, 8));
        assertThat(shipped.forcedBy(communicator(java.util.Map.of()))).isSameAs(shipped);
        assertThatThrownBy(() -> shipped.forcedBy(communicator(java.util.Map.of("coll_gm_bcast", "fastest"))))
                .isInstanceOf(McaException.class)
                .hasMessageStartingWith("info key coll_gm_bcast=fastest of COMM_B: bcast has no algorithm 'fastest'");
    }
}
