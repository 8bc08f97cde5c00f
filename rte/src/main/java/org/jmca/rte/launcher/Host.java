package org.jmca.rte.launcher;

/**
 * A host the job may run on, as {@code --host} or {@code --hostfile} name it.
 *
 * @param name  how the launch agent reaches it ({@code ssh NAME}, {@code ip netns exec NAME}), and
 *              the name its ranks report as their host
 * @param slots ranks it takes before it counts as oversubscribed
 */
record Host(String name, int slots) {
    Host {
        String problem = nameProblem(name);
        if (problem != null || slots < 1) {
            throw new IllegalArgumentException("a host needs a name and at least one slot: " + quoted(name) + " "
                    + slots + (problem != null ? " (" + problem + ")" : ""));
        }
    }

    /**
     * Why {@code name} cannot name a host, or null if it can. It is passed to the launch agent as
     * an argument ({@code ssh NAME}), so it may not begin with '-' (ssh would read an option, such
     * as {@code -oProxyCommand=...}), nor hold blanks or control characters.
     */
    static String nameProblem(String name) {
        if (name.isBlank()) {
            return "an empty host name";
        }
        if (name.startsWith("-")) {
            return "a host name may not begin with '-': the launch agent (ssh) would read it as an option";
        }
        boolean odd = name.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)
                || Character.isISOControl(c) || Character.getType(c) == Character.FORMAT);
        return odd ? "a host name may not hold blanks or control characters" : null;
    }

    /** The name in quotes, as {@link #escaped} shows it. */
    static String quoted(String name) {
        return "'" + escaped(name) + "'";
    }

    /** The text with control, format and blank characters other than ' ' as \\uXXXX, so that a message shows them. */
    static String escaped(String text) {
        StringBuilder shown = new StringBuilder();
        text.codePoints().forEach(c -> {
            boolean hidden = Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.SURROGATE
                    || c != ' ' && (Character.isWhitespace(c) || Character.isSpaceChar(c));
            if (hidden) {
                shown.append(String.format("\\u%04X", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }
}
