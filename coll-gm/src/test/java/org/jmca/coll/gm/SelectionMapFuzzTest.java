package org.jmca.coll.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.contract.TestCommunicator;
import org.jmca.mca.fuzz.FuzzFiles;
import org.jmca.mca.fuzz.TextMutations;

/**
 * coll/gm selection maps as a user may get them wrong: the shipped map and generated ones with
 * one token replaced, removed, duplicated or moved, truncated anywhere, with huge and negative
 * numbers, substitutions, deep nesting, random text and random bytes; and the info key that
 * forces one rule. Every one is read, or refused with an {@link McaException} naming the file
 * (and a line of it, where the reader knows one) or the info key.
 */
class SelectionMapFuzzTest {
    private static final SelectionMap SHIPPED = SelectionMap.load(null);
    private static final Path DIR = FuzzFiles.directory("selection-map-fuzz");

    @Property(tries = 80)
    void aMutatedMapIsReadOrRefusedNamingTheFile(@ForAll("mutatedMaps") String text) {
        loadOrRefused(text);
    }

    @Property(tries = 40)
    void randomTextIsReadOrRefused(@ForAll("randomText") String text) {
        loadOrRefused(text);
    }

    @Property(tries = 30)
    void randomBytesAreReadOrRefused(@ForAll byte[] bytes) throws IOException {
        Path file = Files.write(DIR.resolve("bytes.conf"), bytes);
        try {
            SelectionMap.load(file);
        } catch (McaException e) {
            assertThat(e.getMessage()).contains(file.toString()).doesNotContain("Input length");
        }
    }

    /** A substitution escaped as ConfigException.NotResolved: the map was never resolved. */
    @Property(tries = 40)
    void aSubstitutionIsResolvedOrRefusedAtItsLine(@ForAll("substitutions") String text) {
        loadOrRefused(text);
    }

    /** Typesafe Config recursed into a StackOverflowError on these; now they are an error naming the file. */
    @Property(tries = 12)
    void deepNestingIsRefusedNamingTheFile(@ForAll @IntRange(min = 50, max = 30_000) int depth,
                                           @ForAll @IntRange(min = 0, max = 4) int where) {
        String nested = "[".repeat(depth) + "]".repeat(depth);
        String text = switch (where) {
            case 0 -> "bcast = " + nested;
            case 1 -> "bcast = [ " + nested + " ]";
            case 2 -> "bcast = [ { alg = binomial, fanout = " + nested + " } ]";
            case 3 -> "bcast" + ".a".repeat(depth) + " = 1";
            default -> "bcast = " + "{ a = ".repeat(depth) + "1" + "}".repeat(depth);
        };
        loadOrRefused(text);
    }

    @Property(tries = 300)
    void anyInfoKeyValueForcesARuleOrNamesTheKey(@ForAll("infoValues") String value) {
        try {
            SelectionMap forced = SHIPPED.forcedBy(TestCommunicator.of("COMM_F", 4, Map.of("coll_gm_bcast", value)));
            assertThat(SelectionMap.names(CollFunction.BCAST)).contains(forced.choose(CollFunction.BCAST, 4, 8).alg());
        } catch (McaException e) {
            assertThat(e.getMessage()).startsWith("info key coll_gm_bcast=" + value + " of COMM_F: ");
        }
    }

    @Example
    void aSubstitutionResolvesWithinTheMapAndAnUnknownOneNamesItsLine() {
        SelectionMap map = load("bcast = [ { alg = binary } ]\nbcast += { comm_size_min = 4, alg = nary }\n"
                + "reduce = [ { alg = binomial } ]\nreduce = ${reduce} [ { msg_size_min = 1k, alg = binomial, segment = 8k } ]\n");
        assertThat(map.choose(CollFunction.BCAST, 4, 8).alg()).isEqualTo("nary");
        assertThat(map.choose(CollFunction.BCAST, 2, 8).alg()).isEqualTo("binary");
        assertThatThrownBy(() -> load("bcast = [\n  { alg = ${PATH} }\n]\n"))
                .isInstanceOf(McaException.class)
                .hasMessageMatching("(?s).*map\\.conf:2: not a valid HOCON table: .*PATH.*");
    }

    /** Typesafe Config's hashCode and render recurse: a deep value that parses is refused at its line. */
    @Example
    void aValueNestedBeyondTheLimitIsRefusedAtItsLine() {
        for (String deep : List.of("bcast" + ".a".repeat(1000) + " = 1", "bcast = " + "[".repeat(300) + "]".repeat(300))) {
            assertThatThrownBy(() -> load("# deep\n" + deep + "\n"))
                    .isInstanceOf(McaException.class)
                    .hasMessageContaining("map.conf:2: not a valid HOCON table: nested more than " + UserHocon.MAX_DEPTH);
        }
    }

    @Example
    void anIncludeIsRefusedAtItsLine() {
        assertThatThrownBy(() -> load("bcast = [ { alg = binomial } ]\ninclude url(\"http://example.invalid/m.conf\")\n"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("map.conf:2: not a valid HOCON table: include url(")
                .hasMessageContaining("is refused");
    }

    @Example
    void tooManySubstitutionsAreRefusedAtTheirLine() {
        String text = "b = []\n" + "b += { alg = binomial }\n".repeat(200) + "bcast = ${b}\n";
        assertThatThrownBy(() -> load(text)).isInstanceOf(McaException.class)
                .hasMessageContaining("map.conf:" + (UserHocon.MAX_SUBSTITUTIONS + 2) + ": not a valid HOCON table: more than");
    }

    private static SelectionMap load(String text) {
        return SelectionMap.load(write("map.conf", text));
    }

    private static void loadOrRefused(String text) {
        Path file = write("fuzz.conf", text);
        try {
            SelectionMap.load(file);
        } catch (McaException e) {
            Matcher named = Pattern.compile("(?s)" + Pattern.quote(file.toString()) + "(:(\\d+))?: .+")
                    .matcher(e.getMessage());
            assertThat(named.matches()).as("names the file: %s", e.getMessage()).isTrue();
            if (named.group(2) == null) {
                assertThat(e.getMessage()).as("only an unlocatable problem has no line").contains("nested too deeply");
            } else {
                assertThat(Integer.parseInt(named.group(2))).isBetween(1, (int) text.chars().filter(c -> c == '\n').count() + 1);
            }
        }
    }

    private static Path write(String name, String text) {
        try {
            return Files.write(DIR.resolve(name), text.getBytes(StandardCharsets.UTF_8)); // a lone surrogate becomes '?'
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- generators ------------------------------------------------------------------------------

    @Provide
    Arbitrary<String> mutatedMaps() {
        String shipped;
        try (var in = SelectionMap.class.getResourceAsStream("selection-map.conf")) {
            shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TextMutations.mutated(Arbitraries.oneOf(validMaps(), Arbitraries.just(shipped)),
                TextMutations.tokens("alg", "fanout", "segment", "bcast", "gather", "ring"));
    }

    @Provide
    Arbitrary<String> randomText() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200),
                        Arbitraries.strings().withChars("{}[],:=\"#\n\t $+?.abc1k").ofMaxLength(300))
                .filter(text -> !text.contains("include"));
    }

    @Provide
    Arbitrary<String> substitutions() {
        Arbitrary<String> reference = Arbitraries.of("${x}", "${?x}", "${a}", "${bcast}", "${a.b}", "${\"a\"}", "${}",
                "${PATH}", "${?HOME}", "[${a}]", "${a} ${a}", "{ alg = binomial } ${a}");
        return Combinators.combine(Arbitraries.of("", "a = binary\n", "a = { alg = binary }\n", "a = [ { alg = nary } ]\n",
                        "a = 3\n"), Arbitraries.of("bcast = %s", "bcast = [ { alg = %s } ]",
                        "bcast = [ { alg = binomial, fanout = %s } ]", "bcast = [ %s ]", "reduce = [ { alg = binomial, segment = %s } ]"),
                reference).as((prefix, line, ref) -> prefix + line.formatted(ref) + "\n");
    }

    @Provide
    Arbitrary<String> infoValues() {
        return Arbitraries.oneOf(
                Combinators.combine(Arbitraries.of("binomial", "pipeline", "nary", "fastest", "", "BINOMIAL"),
                                Arbitraries.of("", ":", ":64k", ":0", ":-1", ":99999999999999999999", ":1e3", ":64k:3",
                                        ":8k:-2", ":8k:2147483648", ":x:y:z", "::"))
                        .as((alg, rest) -> alg + rest),
                Arbitraries.strings().all().ofMaxLength(30));
    }

    private static Arbitrary<String> validMaps() {
        Arbitrary<String> rule = Combinators.combine(Arbitraries.of("", "comm_size_min = 4, ", "comm_size_min = 16, "),
                        Arbitraries.of("", "msg_size_min = 0, ", "msg_size_min = 8k, ", "msg_size_min = 1048576, "),
                        Arbitraries.of("binomial", "binary", "pipeline", "nary"),
                        Arbitraries.of("", ", segment = 16k", ", fanout = 3", ", segment = 0, fanout = 2"))
                .as((comm, msg, alg, more) -> "  { " + comm + msg + "alg = " + alg + more + " }");
        return rule.list().ofMinSize(1).ofMaxSize(4).uniqueElements()
                .map(rules -> "# a map\nbcast = [\n" + String.join("\n", rules) + "\n]\nbarrier = [ { alg = recursive_doubling } ]\n");
    }
}
