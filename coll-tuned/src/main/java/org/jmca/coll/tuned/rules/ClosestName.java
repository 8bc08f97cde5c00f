package org.jmca.coll.tuned.rules;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import org.jmca.mca.param.EditDistance;

/** The valid name nearest to a misspelt one (Levenshtein distance, any case), for "did you mean". */
final class ClosestName {
    private ClosestName() {
    }

    static String to(String wanted, Collection<String> names) {
        String lower = wanted.toLowerCase(Locale.ROOT);
        return names.stream()
                .min(Comparator.comparingInt(name -> EditDistance.between(lower, name.toLowerCase(Locale.ROOT))))
                .orElseThrow();
    }
}
