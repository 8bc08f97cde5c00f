package org.jmca.coll.tuned.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitrary;
import org.jmca.mca.fuzz.TextMutations;

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

    /** Valid tables with one mutation, in a rules table's own words too (never an include). */
    static Arbitrary<String> mutated(Arbitrary<String> valid) {
        return TextMutations.mutated(valid, TextMutations.tokens("rule-file-version-2", "rule-file-version-9",
                "alg", "rules", "collectives", "bcast", "ring", "\"inf\"", "Inf"));
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
