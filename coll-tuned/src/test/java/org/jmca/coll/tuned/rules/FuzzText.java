package org.jmca.coll.tuned.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Structure-aware mutations of valid rules files, for the fuzz tests of this package. */
final class FuzzText {
    private FuzzText() {
    }

    /** The shipped test tables, the valid files that mutations start from. */
    static String resource(String name) {
        try {
            return Files.readString(TestFiles.resource(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tokens to put in: wrong types, huge and negative numbers, syntax, blanks, odd characters. */
    static Arbitrary<String> tokens() {
        return Arbitraries.oneOf(
                Arbitraries.of("", "-1", "0", "1", "+7", "010", "08", "0x", "0x1F", "0xFFFFFFFFFFFFFFFF",
                        "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
                        "-9223372036854775809", "99999999999999999999999999999", "1e308", "1.5", "inf", "Inf", "NaN",
                        "64k", "99999999999999999999999t", "rule-file-version-2", "rule-file-version-9", "=", ":",
                        "{", "}", "[", "]", ",", "\"", "\"\"\"", "#", "//", "\n", "\r\n", "\r", "\t", "\f",
                        "${x}", "${?x}", "${", "+=", "null", "true", "\\", "\u0000", "\uFFFD", "\uD800", "\u2028",
                        "\u00e9", "\u4e2d", ".", "alg", "rules", "collectives", "bcast", "ring", "\"inf\""),
                Arbitraries.integers().between(1_000, 100_000).map(" "::repeat),
                Arbitraries.integers().between(1_000, 50_000).map("9"::repeat),
                Arbitraries.integers().between(1_000, 50_000).map(n -> "0x" + "f".repeat(n)),
                Arbitraries.integers().between(100, 3_000).map("[{"::repeat),
                Arbitraries.strings().all().ofMaxLength(8));
    }

    static Arbitrary<String> mutated(Arbitrary<String> valid) {
        return Combinators.combine(valid, Arbitraries.integers().between(0, 6), Arbitraries.doubles().between(0, 1),
                        tokens())
                .as(FuzzText::mutate)
                .filter(text -> !text.contains("include"));
    }

    /** One mutation: replace, remove, duplicate or insert a token, swap two, or truncate the text. */
    static String mutate(String text, int kind, double where, String token) {
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

    /** Writes {@code text} to {@code file}, replacing what was there. */
    static Path write(Path file, String text) {
        try {
            return Files.write(file, text.getBytes(StandardCharsets.UTF_8)); // a lone surrogate becomes '?'
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The number of lines of a text, as the readers count them (a line break is \n). */
    static int lines(String text) {
        return (int) text.chars().filter(c -> c == '\n').count() + 1;
    }
}
