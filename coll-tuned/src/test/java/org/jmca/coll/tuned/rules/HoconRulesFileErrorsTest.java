package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every problem of a HOCON/JSON file is an error at the line of the value concerned. */
class HoconRulesFileErrorsTest {

    @TempDir
    Path dir;

    @Test
    void anUnknownCollectiveNamesTheClosestAndTheValidOnes() {
        readingFails("""
                {
                  "collectives": {
                    "allreduc": []
                  }
                }
                """)
                .hasMessageStartingWith(file() + ":3: unknown collective 'allreduc' in collectives; did you mean"
                        + " 'allreduce'? Valid collectives: allgather, allgatherv, allreduce, alltoall,")
                .hasMessageContaining("reduce_scatter_block, scan, scatter, scatterv, neighbor_allgather");
    }

    @Test
    void theSchemasSpellingOfReduceScatterIsExplained() {
        readingFails("collectives { reducescatter: [] }\n")
                .hasMessageStartingWith(file() + ":1: unknown collective 'reducescatter' in collectives; did you mean"
                        + " 'reduce_scatter'? (Open MPI's JSON schema spells it so, but its reader knows only"
                        + " reduce_scatter)");
    }

    @Test
    void anUnknownAlgorithmNameListsTheValidOnes() {
        readingFails("""
                collectives {
                  bcast = [ { rules = [
                      { alg = binomail }
                  ] } ]
                }
                """)
                .hasMessage(file() + ":3: expected alg of rule 1 of bcast's section 1 to be an algorithm of bcast:"
                        + " 0..9 or a name (0 ignore, 1 basic_linear, 2 chain, 3 pipeline, 4 split_binary_tree,"
                        + " 5 binary_tree, 6 binomial, 7 knomial, 8 scatter_allgather, 9 scatter_allgather_ring),"
                        + " found 'binomail'; did you mean binomial?");
    }

    @Test
    void anAlgorithmNumberOutOfRange() {
        readingFails("collectives { scan = [ { rules = [ { alg = 3 } ] } ] }\n")
                .hasMessage(file() + ":1: expected alg of rule 1 of scan's section 1 to be an algorithm of scan:"
                        + " 0..2 or a name (0 ignore, 1 linear, 2 recursive_doubling), found 3");
    }

    @Test
    void aValueOfTheWrongType() {
        readingFails("""
                collectives {
                  barrier = [
                    { comm_size_min = "many", rules = [] }
                  ]
                }
                """)
                .hasMessage(file() + ":3: expected comm_size_min of section 1 of barrier to be a whole number in"
                        + " 0..2147483647, found 'many'");
    }

    @Test
    void aSizeThatIsNoSize() {
        readingFails("collectives { bcast = [ { rules = [ { msg_size_min = 12 parsecs, alg = 1 } ] } ] }\n")
                .hasMessage(file() + ":1: expected msg_size_min of rule 1 of bcast's section 1 to be a byte count"
                        + " such as 4096, \"64k\" or \"1m\" in 0 or more, found '12 parsecs'");
    }

    @Test
    void anAlgorithmOfTheWrongType() {
        readingFails("collectives { bcast = [ { rules = [ { alg = true } ] } ] }\n")
                .hasMessageStartingWith(file() + ":1: expected alg of rule 1 of bcast's section 1 to be an algorithm"
                        + " of bcast: 0..9 or a name")
                .hasMessageEndingWith("found true");
    }

    @Test
    void rulesThatAreNoList() {
        readingFails("collectives {\n  bcast = [ { rules = { alg = 1 } } ]\n}\n")
                .hasMessage(file() + ":2: expected rules of section 1 of bcast to be a list of message-size rules"
                        + " [...], found an object");
    }

    @Test
    void aMinimumAboveItsMaximum() {
        readingFails("""
                {"collectives": {"allreduce": [
                  {"comm_size_min": 64,
                   "comm_size_max": 8, "rules": []}
                ]}}
                """)
                .hasMessage(file() + ":2: comm_size_min 64 of section 1 of allreduce is above its comm_size_max 8:"
                        + " the range is empty");
    }

    @Test
    void anUnknownKeyNamesTheClosestValidKey() {
        readingFails("""
                collectives {
                  bcast = [ { rules = [
                    { alg = 3,
                      segsize = 8192 }
                  ] } ]
                }
                """)
                .hasMessage(file() + ":4: unknown key 'segsize' in rule 1 of bcast's section 1; did you mean"
                        + " 'seg_size'? (Open MPI's classic-to-JSON converter writes 'segsize', which Open MPI's"
                        + " reader ignores) Valid keys: msg_size_min, msg_size_max, alg, faninout, seg_size, reqs");
    }

    @Test
    void aMissingAlgorithm() {
        readingFails("collectives {\n  bcast = [ { rules = [\n    { faninout = 2 }\n  ] } ]\n}\n")
                .hasMessageStartingWith(file() + ":3: rule 1 of bcast's section 1 has no 'alg': expected the"
                        + " algorithm: 0..9 or a name");
    }

    @Test
    void noCollectives() {
        readingFails("rule_file_version = 3\n")
                .hasMessage(file() + ":1: the rules file has no 'collectives': expected an object of collectives,"
                        + " such as collectives { allreduce: [...] }");
    }

    @Test
    void anotherModule() {
        readingFails("module = han\ncollectives {}\n")
                .hasMessage(file() + ":1: expected module to be 'tuned' (these are coll/tuned rules), found 'han'");
    }

    @Test
    void anotherVersion() {
        readingFails("collectives {}\nrule_file_version = 2\n")
                .hasMessage(file() + ":2: expected rule_file_version to be 3, the version of Open MPI's JSON rules"
                        + " format, found 2");
    }

    @Test
    void anUnknownRankDistribution() {
        readingFails("collectives {\n  bcast = [ { comm_rank_distribution = one-node, rules = [] } ]\n}\n")
                .hasMessage(file() + ":2: expected comm_rank_distribution of section 1 of bcast to be one of any,"
                        + " one-per-node, single-node, found 'one-node'");
    }

    @Test
    void aSyntaxError() {
        readingFails("{\n  \"collectives\": {\n    \"bcast\": [ { \"rules\": [ } ]\n  }\n}\n")
                .hasMessageStartingWith(file() + ":3: ");
    }

    @Test
    void aMissingFile() {
        Path missing = dir.resolve("missing.json");
        assertThatThrownBy(() -> HoconRulesFile.read(missing))
                .isInstanceOf(RulesFileException.class)
                .hasMessage("cannot read rules file " + missing + ": no such file");
    }

    private Path file() {
        return dir.resolve("rules.json");
    }

    private AbstractThrowableAssert<?, ? extends Throwable> readingFails(String text) {
        Path written = TestFiles.write(dir, "rules.json", text);
        return assertThatThrownBy(() -> HoconRulesFile.read(written)).isInstanceOf(RulesFileException.class);
    }
}
