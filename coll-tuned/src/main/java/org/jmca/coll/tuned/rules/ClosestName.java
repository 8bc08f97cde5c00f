package org.jmca.coll.tuned.rules;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;

/** The valid name nearest to a misspelt one (Levenshtein distance, any case), for "did you mean". */
final class ClosestName {
    private ClosestName() {
    }

    static String to(String wanted, Collection<String> names) {
        String lower = wanted.toLowerCase(Locale.ROOT);
        return names.stream()
                .min(Comparator.comparingInt(name -> distance(lower, name.toLowerCase(Locale.ROOT))))
                .orElseThrow();
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
