package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.config.UserHocon;
import org.jmca.mca.fuzz.FuzzFiles;

/**
 * HOCON/JSON rules tables as a user may get them wrong: the shipped and generated tables with one
 * token replaced, removed, duplicated or moved, truncated anywhere, with huge and negative numbers,
 * deep nesting and random text; read through {@link RulesFiles}, which also sends them to the
 * classic reader where a mutation makes them look classic. Every one is read, or refused with a
 * {@link RulesFileException} naming the file (and a line of it, where the reader knows one).
 */
class HoconRulesFileFuzzTest {
    private static final Path DIR = FuzzFiles.directory("hocon-rules-fuzz");

    @Property(tries = 100)
    void aMutatedTableIsReadOrRefusedNamingTheFile(@ForAll("mutatedTables") String text) {
        readOrRefused(text);
    }

    @Property(tries = 150)
    void randomTextIsReadOrRefused(@ForAll("randomText") String text) {
        readOrRefused(text);
    }

    /** Typesafe Config recursed into a StackOverflowError on these; now they are an error naming the file. */
    @Property(tries = 12)
    void deepNestingIsRefusedNamingTheFile(@ForAll @IntRange(min = 50, max = 30_000) int depth,
                                           @ForAll @IntRange(min = 0, max = 5) int where) {
        String nested = "[".repeat(depth) + "]".repeat(depth);
        String text = switch (where) {
            case 0 -> "collectives { bcast = " + nested + " }";
            case 1 -> "collectives { bcast = [ { rules = [ { alg = " + nested + " } ] } ] }";
            case 2 -> "rule_file_version = " + nested + "\ncollectives {}";
            case 3 -> "collectives { bcast = [ { comm_size_min = " + nested + ", rules = [] } ] }";
            case 4 -> "collectives" + ".a".repeat(depth) + " = 1";
            default -> "collectives { bcast = " + "{ a = ".repeat(depth) + "1" + "}".repeat(depth) + " }";
        };
        readOrRefused(text);
    }

    @Property(tries = 4)
    void manySubstitutionsAreRefusedAtTheirLine(@ForAll @IntRange(min = 33, max = 2000) int count) {
        StringBuilder text = new StringBuilder("x = [1]\n");
        for (int i = 0; i < count; i++) {
            text.append("x += ").append(i).append('\n');
        }
        text.append("collectives {}\n");
        Path file = FuzzText.write(DIR.resolve("appends.conf"), text.toString());
        assertThatThrownBy(() -> HoconRulesFile.read(file))
                .isInstanceOf(RulesFileException.class)
                .hasMessageStartingWith(file + ":" + (UserHocon.MAX_SUBSTITUTIONS + 2) + ": more than");
    }

    /** Typesafe Config's hashCode, render and unwrapped recurse: a deep value that parses is refused at its line. */
    @Example
    void aValueNestedBeyondTheLimitIsRefusedAtItsLine() {
        for (String deep : List.of("collectives" + ".a".repeat(1000) + " = 1", "x = " + "[".repeat(300) + "]".repeat(300))) {
            Path file = FuzzText.write(DIR.resolve("deep.conf"), "module = tuned\n" + deep + "\n");
            assertThatThrownBy(() -> HoconRulesFile.read(file))
                    .isInstanceOf(RulesFileException.class)
                    .hasMessageStartingWith(file + ":2: nested more than " + UserHocon.MAX_DEPTH);
        }
    }

    @Example
    void anIncludeIsRefusedAtItsLine() {
        for (String include : List.of("include \"other.json\"", "include url(\"http://example.invalid/rules\")",
                "include file(\"/etc/hosts\")")) {
            Path file = FuzzText.write(DIR.resolve("include.json"), "{\n  " + include + "\n  collectives {}\n}\n");
            assertThatThrownBy(() -> HoconRulesFile.read(file))
                    .isInstanceOf(RulesFileException.class)
                    .hasMessageStartingWith(file + ":2: include")
                    .hasMessageContaining("is refused");
        }
    }

    @Example
    void aSubstitutionIsResolvedWithinTheFileOnly() {
        Path file = FuzzText.write(DIR.resolve("subst.conf"),
                "\"$schema\" = knomial\ncollectives { bcast = [ { rules = [ { alg = ${\"$schema\"} } ] } ] }\n");
        assertThat(HoconRulesFile.read(file).sections()).hasSize(1);
        Path env = FuzzText.write(DIR.resolve("env.conf"),
                "collectives { bcast = [ { rules = [ { alg = ${PATH} } ] } ] }\n");
        assertThatThrownBy(() -> HoconRulesFile.read(env)).isInstanceOf(RulesFileException.class)
                .hasMessageStartingWith(env + ":1: ");
    }

    private static void readOrRefused(String text) {
        Path file = FuzzText.write(DIR.resolve("fuzz.json"), text);
        try {
            RulesFiles.read(file);
        } catch (RulesFileException e) {
            Matcher named = Pattern.compile("(?s)" + Pattern.quote(file.toString()) + "(:(\\d+))?: .+")
                    .matcher(e.getMessage());
            assertThat(named.matches()).as("names the file: %s", e.getMessage()).isTrue();
            if (named.group(2) == null) {
                assertThat(e.getMessage()).as("only an unlocatable problem has no line").contains("nested too deeply");
            } else {
                assertThat(Integer.parseInt(named.group(2))).isBetween(1, FuzzText.lines(text));
            }
        }
    }

    @Provide
    Arbitrary<String> mutatedTables() {
        return FuzzText.mutated(Arbitraries.oneOf(validTables(), Arbitraries.of(FuzzText.resource("rules.json"))));
    }

    @Provide
    Arbitrary<String> randomText() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200),
                        Arbitraries.strings().withChars("{}[],:=\"#\n\t $+?.abc1").ofMaxLength(300))
                .filter(text -> !text.contains("include"));
    }

    /** Valid tables in HOCON or JSON spelling. */
    private static Arbitrary<String> validTables() {
        Arbitrary<String> rule = Combinators.combine(Arbitraries.of("0", "512", "\"64k\""),
                        Arbitraries.of("\"inf\"", "1023", "\"1m\""), Arbitraries.of("ring", "\"knomial\"", "2", "0"),
                        Arbitraries.of("", ", faninout: 4", ", seg_size: \"8k\", reqs: 2"))
                .as((min, max, alg, more) -> "{ msg_size_min: " + min + ", msg_size_max: " + max + ", alg: " + alg
                        + more + " }");
        Arbitrary<String> section = Combinators.combine(Arbitraries.of("", "comm_size_min: 2, ", "comm_size_max: 8, "),
                        Arbitraries.of("", "comm_rank_distribution: any, ", "comm_rank_distribution: \"single-node\", "),
                        rule.list().ofMinSize(1).ofMaxSize(3))
                .as((size, dist, rules) -> "    { " + size + dist + "rules: [\n        "
                        + String.join(",\n        ", rules) + "\n    ] }");
        Arbitrary<String> collective = Combinators.combine(Arbitraries.of("allreduce", "bcast", "\"gatherv\""),
                        section.list().ofMinSize(1).ofMaxSize(2))
                .as((name, sections) -> "  " + name + ": [\n" + String.join(",\n", sections) + "\n  ]");
        return Combinators.combine(Arbitraries.of("", "rule_file_version: 3,\n", "\"module\": \"tuned\",\n"),
                        collective.list().ofMinSize(1).ofMaxSize(1))
                .as((header, collectives) -> "{\n" + header + "collectives: {\n" + String.join(",\n", collectives)
                        + "\n}\n}\n");
    }
}
