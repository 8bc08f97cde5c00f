package org.jmca.coll.tuned.rules;

import java.nio.file.Path;

/**
 * Reads a rules file in whichever format it is written. The format is told by the content, not
 * the file name: Open MPI does the same (it tries JSON, then classic, whatever the name), and
 * the two cannot be confused, since a classic file begins, after blanks and {@code #} comments,
 * with a number or {@code rule-file-version-N}, which no HOCON/JSON rules file can.
 */
public final class RulesFiles {
    private RulesFiles() {
    }

    public static RulesTable read(Path file) {
        String text = RulesText.read(file);
        return isClassic(text) ? ClassicRulesFile.parse(file, text) : HoconRulesFile.read(file);
    }

    /** Whether the text is in the classic format; an empty file counts as classic (and has no rules). */
    static boolean isClassic(String text) {
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '#') {
                int newline = text.indexOf('\n', i);
                i = newline < 0 ? text.length() : newline + 1;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                return Character.isDigit(c) || c == '+' || c == '-'
                        || text.startsWith(ClassicRulesFile.VERSION_MARKER, i);
            }
        }
        return true;
    }
}
