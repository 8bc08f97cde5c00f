package org.jmca.mca.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Structure-aware mutations of a valid text (a parameter file, a rules table, a selection map, a
 * hostfile), for the fuzz tests of every module that reads one: replace, remove, duplicate or
 * insert a token, swap two, or cut the text short. Never a HOCON {@code include}, which would make
 * a fuzz case read other files.
 */
public final class TextMutations {
    /** Wrong types, huge and negative numbers, syntax, blanks and odd characters. */
    private static final List<String> COMMON = List.of("", "-1", "0", "1", "+7", "010", "08", "-0", "0x", "0x1F",
            "0x7fffffff", "0xFFFFFFFFFFFFFFFF", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "99999999999999999999999999999", "1e308", "1e99999", "1.5",
            "inf", "NaN", "64k", "-8k", "99999999999999999999999t", "=", "==", ":", "{", "}", "[", "]", ",", "\"",
            "\"\"\"", "#", "//", "\n", "\r\n", "\r", "\t", "\f", "${x}", "${?x}", "${", "+=", "null", "true", "\\",
            "\u0000", "\uFFFD", "\uD800", "\u2028", "\u00e9", "\u4e2d", ".");

    private TextMutations() {
    }

    /** The common tokens, the format's own {@code words}, long runs of blanks, digits and brackets, and random text. */
    public static Arbitrary<String> tokens(String... words) {
        return Arbitraries.oneOf(
                Arbitraries.of(Stream.concat(COMMON.stream(), Stream.of(words)).distinct().toList()),
                Arbitraries.integers().between(1_000, 100_000).map(" "::repeat),
                Arbitraries.integers().between(1_000, 50_000).map("9"::repeat),
                Arbitraries.integers().between(100, 3_000).map("[{"::repeat),
                Arbitraries.strings().all().ofMaxLength(8));
    }

    /** {@code valid} texts, each with one mutation that puts in one of {@code tokens} where it puts one. */
    public static Arbitrary<String> mutated(Arbitrary<String> valid, Arbitrary<String> tokens) {
        return Combinators.combine(valid, Arbitraries.integers().between(0, 6), Arbitraries.doubles().between(0, 1),
                        tokens)
                .as(TextMutations::mutate)
                .filter(text -> !text.contains("include"));
    }

    /** One mutation of {@code text} at relative place {@code where}: which, by {@code kind} 0..6. */
    public static String mutate(String text, int kind, double where, String token) {
        List<String> parts = split(text);
        int i = Math.min(parts.size() - 1, (int) (where * parts.size()));
        switch (kind) {
            case 0 -> parts.set(i, token);
            case 1 -> parts.remove(i);
            case 2 -> parts.add(i, parts.get(i));
            case 3 -> {
                return text.substring(0, (int) (where * text.length()));
            }
            case 4 -> parts.add(i, token);
            case 5 -> {
                if (i + 1 < parts.size()) {
                    parts.set(i, parts.set(i + 1, parts.get(i)));
                }
            }
            default -> {
                return text;
            }
        }
        return String.join("", parts);
    }

    /** Runs of letters and digits, runs of blanks, and every other character alone. */
    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int start = i;
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
            } else if (c == ' ' || c == '\t') {
                while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                    i++;
                }
            } else {
                i++;
            }
            parts.add(text.substring(start, i));
        }
        if (parts.isEmpty()) {
            parts.add("");
        }
        return parts;
    }
}
