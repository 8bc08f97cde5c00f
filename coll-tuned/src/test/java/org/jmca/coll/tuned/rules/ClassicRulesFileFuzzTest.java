package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Classic (Open MPI {@code coll_tuned_dynamic_file}) rules tables as a user may get them wrong:
 * valid tables with one word replaced, removed, duplicated or moved, truncated anywhere, with
 * huge, negative and octal-looking numbers, long runs of blanks and random text. Every one is
 * read, or refused with a {@link RulesFileException} naming the file and a line of it.
 */
class ClassicRulesFileFuzzTest {
    private static final Path FILE = Path.of("fuzz.rules");
    private static final Pattern NAMED = Pattern.compile("(?s)fuzz\\.rules:(\\d+): .+");

    @Property(tries = 300)
    void aMutatedTableIsReadOrRefusedAtALineOfIt(@ForAll("mutatedTables") String text) {
        readOrRefused(text);
    }

    @Property(tries = 200)
    void randomTextIsReadOrRefused(@ForAll("randomText") String text) {
        readOrRefused(text);
    }

    @Property(tries = 200)
    void theTokensAreTheWordsOfTheTextAtTheirLines(@ForAll("randomText") String text) {
        List<ClassicToken> tokens = ClassicTokenizer.tokens(text);
        int last = ClassicTokenizer.lastLine(text);
        int previous = 1;
        for (ClassicToken token : tokens) {
            assertThat(token.text()).isNotEmpty().doesNotContain("#");
            assertThat(token.text().chars().noneMatch(Character::isWhitespace)).isTrue();
            assertThat(token.line()).isBetween(previous, last);
            previous = token.line();
        }
    }

    /**
     * BigInteger parsing is slower than linear, and it ran on words of any length: a number word
     * of megabytes took seconds before its size was checked. It is refused by its length now.
     */
    @Property(tries = 4)
    void aHugeNumberWordIsRefusedQuickly(@ForAll @IntRange(min = 1_000_000, max = 2_000_000) int digits,
                                         @ForAll("numberPrefixes") String prefix) {
        String word = prefix + "7".repeat(digits);
        ClassicNumber parsed = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> ClassicNumber.parse(word));
        assertThat(parsed).isInstanceOf(ClassicNumber.NotANumber.class);
        assertThat(((ClassicNumber.NotANumber) parsed).found())
                .contains("(" + word.length() + " characters)").hasSizeLessThan(300);
        String table = "1\n2\n1\n16\n1\n0 " + word + " 0 0\n";
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> readOrRefused(table));
    }

    /** Numbers that fit a long are read exactly as BigInteger reads them; larger ones are "too large". */
    @Property(tries = 500)
    void aNumberWordIsReadAsScanfReadsIt(@ForAll("numberWords") String word) {
        ClassicNumber parsed = ClassicNumber.parse(word);
        String unsigned = word.replaceFirst("^[+-]", "");
        boolean hex = unsigned.matches("0[xX][0-9a-fA-F]+");
        if (!hex && unsigned.length() > 1 && unsigned.startsWith("0")) {
            assertThat(parsed).isInstanceOf(ClassicNumber.NotANumber.class);
            assertThat(((ClassicNumber.NotANumber) parsed).found()).contains("octal");
            return;
        }
        java.math.BigInteger value = new java.math.BigInteger(hex ? unsigned.substring(2) : unsigned, hex ? 16 : 10);
        value = word.startsWith("-") ? value.negate() : value;
        if (value.bitLength() <= 63) {
            assertThat(parsed).isEqualTo(new ClassicNumber.Value(value.longValue()));
        } else {
            assertThat(parsed).isInstanceOf(ClassicNumber.NotANumber.class);
            assertThat(((ClassicNumber.NotANumber) parsed).found()).endsWith("too large");
        }
    }

    private static void readOrRefused(String text) {
        try {
            ClassicRulesFile.parse(FILE, text);
        } catch (RulesFileException e) {
            Matcher named = NAMED.matcher(e.getMessage());
            assertThat(named.matches()).as("names the file and line: %s", e.getMessage()).isTrue();
            assertThat(Integer.parseInt(named.group(1))).isBetween(1, FuzzText.lines(text));
        }
    }

    @Provide
    Arbitrary<String> mutatedTables() {
        return FuzzText.mutated(Arbitraries.oneOf(validTables(),
                Arbitraries.of(FuzzText.resource("classic-v2.conf"), FuzzText.resource("rules.conf"))));
    }

    @Provide
    Arbitrary<String> randomText() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200),
                Arbitraries.strings().withChars("0123456789 \n\t#-+x\r").ofMaxLength(300));
    }

    @Provide
    Arbitrary<String> numberPrefixes() {
        return Arbitraries.of("", "-", "+", "0x", "-0x", "0", "00");
    }

    @Provide
    Arbitrary<String> numberWords() {
        Arbitrary<String> decimal = Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(45);
        Arbitrary<String> hex = Arbitraries.strings().withChars("0123456789abcdefABCDEF").ofMinLength(1)
                .ofMaxLength(30).map(d -> "0x" + d);
        return Combinators.combine(Arbitraries.of("", "-", "+"), Arbitraries.oneOf(decimal, hex))
                .as((sign, digits) -> sign + digits);
    }

    /** Valid classic tables: ascending sizes, the first rule of each section at message size 0. */
    private static Arbitrary<String> validTables() {
        Arbitrary<String> rule = Combinators.combine(Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 8), Arbitraries.integers().between(0, 65_536),
                        Arbitraries.of("", " 4", "   # a comment"))
                .as((alg, fan, seg, tail) -> alg + " " + fan + " " + seg + tail);
        Arbitrary<String> section = rule.list().ofMinSize(1).ofMaxSize(4).map(rules -> {
            StringBuilder text = new StringBuilder(rules.size() + "\n");
            for (int j = 0; j < rules.size(); j++) {
                text.append(j * 1024).append(' ').append(rules.get(j)).append('\n');
            }
            return text.toString();
        });
        Arbitrary<String> collective = section.list().ofMinSize(1).ofMaxSize(3).map(sections -> {
            StringBuilder text = new StringBuilder(sections.size() + "\n");
            for (int i = 0; i < sections.size(); i++) {
                text.append(1 << i).append('\n').append(sections.get(i));
            }
            return text.toString();
        });
        return Combinators.combine(Arbitraries.of("", "rule-file-version-2\n", "rule-file-version-1\n"),
                        collective.list().ofMinSize(1).ofMaxSize(3))
                .as((version, collectives) -> {
                    int[] ids = {2, 7, 3}; // allreduce, bcast, alltoall
                    StringBuilder text = new StringBuilder(version + collectives.size() + "\n");
                    for (int k = 0; k < collectives.size(); k++) {
                        text.append(ids[k]).append("  # collective\n").append(collectives.get(k));
                    }
                    return text.toString();
                });
    }
}
