package org.jmca.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.jmca.mca.fuzz.TextMutations;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource.Kind;

/**
 * Parameter files as a user may get them wrong: valid Open MPI and HOCON files with one token
 * replaced, removed, duplicated or moved, truncated anywhere, with huge and negative numbers,
 * deep nesting, long runs of blanks and random text. Every one is read, or refused with a
 * {@link ParameterException} naming the file (and the line, where the reader knows it); none
 * takes long (the generated inputs are long where the reader used to be slow).
 */
class ParameterFileFuzzTest {
    private static final String FILE = "fuzz.conf";
    /** "--tune file fuzz.conf:3: ..." or, without a line (nesting too deep), "--tune file fuzz.conf: ...". */
    private static final Pattern NAMED = Pattern.compile("(?s)--tune file fuzz\\.conf(:(\\d+))?: .+");

    // ---- properties ------------------------------------------------------------------------------

    @Property(tries = 300)
    void aMutatedOpenMpiFileIsReadOrRefusedAtItsLine(@ForAll("mutatedOpenMpiFiles") String text) {
        readOrRefused(text);
    }

    @Property(tries = 300)
    void aMutatedHoconFileIsReadOrRefusedAtItsLine(@ForAll("mutatedHoconFiles") String text) {
        readOrRefused(text);
    }

    @Property(tries = 200)
    void randomTextIsReadOrRefused(@ForAll("randomText") String text) {
        readOrRefused(text);
    }

    @Property(tries = 40)
    void randomBytesInAFileAreReadOrRefusedNamingIt(@ForAll byte[] bytes) throws IOException {
        Path file = Files.createTempFile("fuzz", ".conf");
        try {
            Files.write(file, bytes);
            ParameterFile.read(file, Kind.USER_FILE);
        } catch (ParameterException e) {
            assertThat(e.getMessage()).startsWith("user file " + file).doesNotContain("Input length");
        } finally {
            Files.delete(file);
        }
    }

    /** Typesafe Config recursed into a StackOverflowError on these; now they are an error naming the file. */
    @Property(tries = 12)
    void deepNestingIsRefusedNamingTheFile(@ForAll("deepNesting") String text) {
        readOrRefused(text);
    }

    /** Chains of += took seconds (200 of them) and overflowed the stack (1000); they are bounded now. */
    @Property(tries = 6)
    void manyAppendsAndSubstitutionsAreRefusedAtTheirLine(@ForAll @IntRange(min = 33, max = 3000) int count,
                                                         @ForAll boolean append) {
        StringBuilder text = new StringBuilder("a = []\n");
        for (int i = 0; i < count; i++) {
            text.append(append ? "a += " + i + "\n" : "k" + (i + 1) + " = ${a} [" + i + "]\n");
        }
        assertThatThrownBy(() -> ParameterFile.parse(text.toString(), FILE, Kind.TUNE_FILE))
                .isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("--tune file " + FILE + ":" + (UserHocon.MAX_SUBSTITUTIONS + 2) + ": more than");
    }

    /**
     * The Open MPI line expressions backtracked: a 40 000-blank run inside a line took 11 s, and
     * this one (200 000) minutes. The scan that replaced them takes a few milliseconds.
     */
    @Property(tries = 5)
    void aLongRunOfBlanksInsideALineIsReadQuickly(@ForAll @IntRange(min = 100_000, max = 200_000) int blanks,
                                                  @ForAll boolean tabs, @ForAll boolean comment) {
        String run = (tabs ? "\t" : " ").repeat(blanks);
        String text = "a = b" + run + "c" + (comment ? run + "# note" + run + "d" : "") + "\nx" + run + "=" + run + "1\n";
        List<RawValue> values = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> ParameterFile.parse(text, FILE, Kind.TUNE_FILE));
        assertThat(values).extracting(RawValue::name).containsExactly("a", "x");
        assertThat(values.get(0).text()).isEqualTo("b" + run + "c");
        assertThat(values.get(1).text()).isEqualTo("1");
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> readOrRefused("a = b" + run + "c\nnot a setting {"));
    }

    /** The scans accept what the regular expressions they replaced accepted, and read the same name and value. */
    @Property(tries = 1000)
    void theLineScanAgreesWithTheExpressionsItReplaced(@ForAll("shortLines") String line) {
        String stripped = line.strip();
        String uncommented = OLD_TRAILING_COMMENT.matcher(stripped).replaceFirst("");
        assertThat(ParameterFile.withoutComment(stripped)).isEqualTo(uncommented);
        Matcher m = OLD_OPEN_MPI_LINE.matcher(uncommented);
        String[] scanned = ParameterFile.openMpiLine(uncommented);
        if (m.matches()) {
            assertThat(scanned).containsExactly(m.group(1), m.group(2) == null ? "" : m.group(2));
        } else {
            assertThat(scanned).isNull();
        }
    }

    /** Typesafe Config's hashCode, render and unwrapped recurse: a deep value that parses is refused at its line. */
    @Example
    void aValueNestedBeyondTheLimitIsRefusedAtItsLine() {
        for (String deep : List.of("x" + ".a".repeat(1000) + " = 1", "x = " + "[".repeat(300) + "]".repeat(300))) {
            assertThatThrownBy(() -> ParameterFile.parse("a = 1\n" + deep + "\n", FILE, Kind.TUNE_FILE))
                    .isInstanceOf(ParameterException.class)
                    .hasMessageStartingWith("--tune file " + FILE + ":2: nested more than " + UserHocon.MAX_DEPTH);
        }
    }

    @Example
    void anIncludeIsRefusedAtItsLine() {
        for (String include : List.of("include \"other.conf\"", "include url(\"http://example.invalid/x.conf\")",
                "include required(file(\"/etc/passwd\"))", "include classpath(\"reference.conf\")")) {
            assertThatThrownBy(() -> ParameterFile.parse("a { b = 1 }\n" + include + "\n", FILE, Kind.TUNE_FILE))
                    .isInstanceOf(ParameterException.class)
                    .hasMessageStartingWith("--tune file " + FILE + ":2: include")
                    .hasMessageContaining("is refused");
        }
    }

    @Example
    void aListOfListsOrObjectsIsAnErrorNotTheirText() {
        assertThatThrownBy(() -> ParameterFile.parse("btl = [self, {a = 1}]\n", FILE, Kind.TUNE_FILE))
                .isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("--tune file " + FILE + ":1: btl is a list holding an object");
        assertThatThrownBy(() -> ParameterFile.parse("btl = [[self]]\n", FILE, Kind.TUNE_FILE))
                .hasMessageContaining(FILE + ":1: btl is a list holding a list");
    }

    private static void readOrRefused(String text) {
        try {
            ParameterFile.parse(text, FILE, Kind.TUNE_FILE);
        } catch (ParameterException e) {
            Matcher named = NAMED.matcher(e.getMessage());
            assertThat(named.matches()).as("names the file: %s", e.getMessage()).isTrue();
            if (named.group(2) == null) {
                assertThat(e.getMessage()).as("only an unlocatable problem has no line").contains("nested too deeply");
            } else {
                assertThat(Integer.parseInt(named.group(2))).isBetween(1, lineCount(text));
            }
        }
    }

    private static int lineCount(String text) {
        return text.split("\\R", -1).length;
    }

    // ---- the expressions the scan replaced, as the oracle of theLineScanAgreesWithTheExpressionsItReplaced ----

    private static final Pattern OLD_OPEN_MPI_LINE =
            Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*([^\\s{\\[].*?)?\\s*");
    private static final Pattern OLD_TRAILING_COMMENT = Pattern.compile("\\s+#.*$");

    // ---- generators ------------------------------------------------------------------------------

    @Provide
    Arbitrary<String> shortLines() {
        return Arbitraries.strings().withChars("ab_Z9= \t#{[\"'\u000b\f\u2003\u00a0x.-").ofMaxLength(14);
    }

    @Provide
    Arbitrary<String> mutatedOpenMpiFiles() {
        Arbitrary<String> line = Combinators.combine(names(), values(), Arbitraries.of("", "  # a comment", "\t#x"),
                Arbitraries.of(" = ", "=", "  =\t", " =")).as((name, value, comment, eq) -> name + eq + value + comment);
        Arbitrary<String> file = Arbitraries.oneOf(line, Arbitraries.of("", "# comment", "   "))
                .list().ofMinSize(1).ofMaxSize(8).map(lines -> String.join("\n", lines) + "\n");
        return TextMutations.mutated(file, TextMutations.tokens());
    }

    @Provide
    Arbitrary<String> mutatedHoconFiles() {
        Arbitrary<String> leaf = Combinators.combine(names(), Arbitraries.of("1", "64k", "\"x y\"", "true", "[self, tcp]",
                "[1, 2]", "${?HOME_NOT_SET_X}", "0.5", "-3")).as((name, value) -> name + " = " + value);
        Arbitrary<String> object = Combinators.combine(names(), leaf.list().ofMinSize(1).ofMaxSize(3))
                .as((name, leaves) -> name + " {\n  " + String.join("\n  ", leaves) + "\n}");
        Arbitrary<String> dotted = Combinators.combine(names(), names(), Arbitraries.of("1", "\"v\"", "[a]"))
                .as((a, b, v) -> a + "." + b + " : " + v);
        Arbitrary<String> file = Arbitraries.oneOf(leaf, object, dotted, Arbitraries.of("# c", "// c", "", "x += 1"))
                .list().ofMinSize(1).ofMaxSize(6).map(lines -> "btl_x { a = 1 }\n" + String.join("\n", lines) + "\n");
        return TextMutations.mutated(file, TextMutations.tokens());
    }

    @Provide
    Arbitrary<String> randomText() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200),
                        Arbitraries.strings().withChars("a=b{}[],:\"#\n\t $+?.").ofMaxLength(300))
                .filter(text -> !text.contains("include"));
    }

    @Provide
    Arbitrary<String> deepNesting() {
        return Combinators.combine(Arbitraries.integers().between(50, 30_000), Arbitraries.integers().between(0, 4))
                .as((depth, kind) -> switch (kind) {
                    case 0 -> "a = " + "[".repeat(depth) + "]".repeat(depth);
                    case 1 -> "a = " + "{b = ".repeat(depth) + "1" + "}".repeat(depth);
                    case 2 -> "a" + ".a".repeat(depth) + " = 1";
                    case 3 -> "a" + " {".repeat(depth) + "}".repeat(depth);
                    default -> "a = [" + "[1, ".repeat(depth) + "]".repeat(depth + 1);
                });
    }

    private static Arbitrary<String> names() {
        return Arbitraries.of("btl", "btl_tcp_eager_limit", "pml", "coll_tuned_use_dynamic_rules", "_x", "mpi_base_verbose");
    }

    private static Arbitrary<String> values() {
        return Arbitraries.of("^tcp", "self,sm", "64k", "\"quoted\"", "'single'", "1", "-1", "", "/etc/rules.conf",
                "a b c");
    }
}
