package org.jmca.mca;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.jmca.mca.param.ValueSource;

/**
 * A framework's include or exclude list, as the user writes it in the parameter named after the
 * framework: {@code btl=self,tcp} uses only those; {@code btl=^tcp} uses all but tcp; empty uses
 * all. {@code ^} may stand only at the start, and every name must be a component that exists.
 *
 * @param framework the framework the list belongs to
 * @param exclude   true for {@code ^a,b}
 * @param names     the component names in the list
 * @param text      the list as written
 * @param source    where the list came from
 */
public record ComponentFilter(Framework framework, boolean exclude, List<String> names, String text,
                              ValueSource source) {

    public ComponentFilter {
        names = List.copyOf(names);
    }

    /**
     * Reads a list.
     *
     * @param known the names of the framework's components
     * @throws McaException naming the list, its source and the problem
     */
    public static ComponentFilter parse(Framework framework, String text, ValueSource source, Collection<String> known) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return new ComponentFilter(framework, false, List.of(), text, source);
        }
        boolean exclude = trimmed.startsWith("^");
        List<String> names = Arrays.stream((exclude ? trimmed.substring(1) : trimmed).split(",", -1))
                .map(String::strip)
                .toList();
        String where = framework.id() + "=" + text + " (" + source + ")";
        for (String name : names) {
            if (name.contains("^")) {
                throw new McaException(where + ": '^' may stand only at the start of the list, where it"
                        + " excludes every component named after it; write " + framework.id()
                        + "=a,b to use only a and b, or " + framework.id() + "=^a,b to use all but a and b");
            }
            if (name.isEmpty()) {
                throw new McaException(where + ": the list has an empty component name");
            }
        }
        for (String name : names) {
            if (!known.contains(name)) {
                throw new McaException(where + ": framework " + framework.id() + " has no component named '"
                        + name + "'; " + describeKnown(framework, known));
            }
        }
        return new ComponentFilter(framework, exclude, names, text, source);
    }

    static String describeKnown(Framework framework, Collection<String> known) {
        return known.isEmpty()
                ? "no " + framework.id() + " components were found on the class path"
                : "available " + framework.id() + " components: " + String.join(", ", known.stream().sorted().toList());
    }

    /** True if the list lets the component be used. */
    public boolean admits(String name) {
        return names.isEmpty() || exclude != names.contains(name);
    }

    /** Why the list keeps a component out, for its status line. */
    public String whyNotAdmitted() {
        String where = framework.id() + "=" + text + " (" + source + ")";
        return exclude ? "excluded by " + where : "not listed in " + where;
    }
}
