package org.jmca.coll.tuned.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a classic rules file into words: whitespace separates them, and {@code #} starts a
 * comment to the end of the line, even inside a word ("12#x" is 12, as Open MPI's scanf reads it).
 */
final class ClassicTokenizer {
    private ClassicTokenizer() {
    }

    static List<ClassicToken> tokens(String text) {
        List<ClassicToken> tokens = new ArrayList<>();
        int line = 1;
        boolean onlyBlanksSincePrevious = false;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                onlyBlanksSincePrevious = false;
                i++;
            } else if (c == '#') {
                i = endOfLine(text, i);
                onlyBlanksSincePrevious = false;
            } else if (c == ' ' || c == '\t') {
                i++;
            } else if (Character.isWhitespace(c)) {
                // \r, \f, \v: Open MPI's look-ahead for a fifth field stops at these too
                onlyBlanksSincePrevious = false;
                i++;
            } else {
                int start = i;
                while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '#') {
                    i++;
                }
                tokens.add(new ClassicToken(text.substring(start, i), line, onlyBlanksSincePrevious));
                onlyBlanksSincePrevious = true;
            }
        }
        return tokens;
    }

    /** The number of the file's last line, where an error about a missing end is reported. */
    static int lastLine(String text) {
        int newlines = (int) text.chars().filter(c -> c == '\n').count();
        return text.isEmpty() || text.endsWith("\n") ? Math.max(1, newlines) : newlines + 1;
    }

    private static int endOfLine(String text, int from) {
        int newline = text.indexOf('\n', from);
        return newline < 0 ? text.length() : newline;
    }
}
