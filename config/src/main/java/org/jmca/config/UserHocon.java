package org.jmca.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigOriginFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.File;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Reads the HOCON of a file a user writes (a parameter file, a coll/tuned rules table, a coll/gm
 * selection map) with three limits that Typesafe Config itself does not have, each reported as a
 * {@link ConfigException} whose origin names the file (and the line, where one is known), so that
 * every reader turns it into its own error as it does a syntax error:
 * <ul>
 *   <li>{@code include} is refused: such a file is one self-contained file. An include would read
 *       another file, a class path resource or a URL (a network fetch at startup), and its values
 *       would be reported at the including file's lines.</li>
 *   <li>At most {@value #MAX_SUBSTITUTIONS} substitutions ({@code ${...}}) and appends
 *       ({@code +=}): Typesafe Config resolves chains of them in time (and, where a value refers to
 *       another twice, memory) that grows steeply: 200 {@code +=} lines take seconds, 30 doubling
 *       references exhaust the heap.</li>
 *   <li>At most {@value #MAX_DEPTH} levels of objects and lists (a dotted key is a level per
 *       dot), far more than any of these files needs: Typesafe Config's own methods (hashCode,
 *       render, unwrapped) recurse through a value, so a deeper one would overflow the stack in
 *       whatever reads it. Nesting too deep even to parse (about a thousand levels) is an error
 *       saying so, without a line, not a {@link StackOverflowError}.</li>
 * </ul>
 */
public final class UserHocon {
    /** The most substitutions and appends one file may have. */
    public static final int MAX_SUBSTITUTIONS = 32;
    /** The most levels of objects and lists one file may nest. */
    public static final int MAX_DEPTH = 100;

    private static final String TOO_DEEP = "nested too deeply for the HOCON reader (objects, lists, dotted keys"
            + " or substitutions thousands deep): flatten it";

    private UserHocon() {
    }

    /**
     * Parses and resolves {@code text}.
     *
     * @param description the file as the errors' origins name it
     * @param resolve     how substitutions resolve ({@link ConfigResolveOptions#noSystem()} to keep the
     *                    environment out)
     * @throws ConfigException for a syntax error, an include, too many substitutions or too deep a
     *                         nesting; its origin's description is {@code description}
     * @return the resolved config, nested at most {@value #MAX_DEPTH} deep
     */
    public static Config parse(String text, String description, ConfigSyntax syntax, ConfigResolveOptions resolve) {
        ConfigOrigin origin = ConfigOriginFactory.newSimple(description);
        checkSubstitutions(text, origin);
        ConfigParseOptions options = ConfigParseOptions.defaults().setSyntax(syntax)
                .setOriginDescription(description).setAllowMissing(false).setIncluder(new RefusingIncluder());
        Config config;
        try {
            config = ConfigFactory.parseString(text, options);
        } catch (RefusedInclude e) {
            int line = includeLine(text);
            throw new ConfigException.Parse(line > 0 ? origin.withLineNumber(line) : origin, e.getMessage());
        } catch (StackOverflowError e) {
            throw new ConfigException.Parse(origin, TOO_DEEP);
        }
        Config resolved;
        try {
            resolved = config.resolve(resolve);
        } catch (StackOverflowError e) {
            throw new ConfigException.Parse(origin, TOO_DEEP);
        }
        checkDepth(resolved.root(), origin);
        return resolved;
    }

    /** Refuses a value nested deeper than {@value #MAX_DEPTH}, at its line; walks without recursion. */
    private static void checkDepth(ConfigObject root, ConfigOrigin origin) {
        record Nested(ConfigValue value, int depth) { }
        Deque<Nested> pending = new ArrayDeque<>();
        pending.push(new Nested(root, 0));
        while (!pending.isEmpty()) {
            Nested nested = pending.pop();
            if (nested.depth() > MAX_DEPTH) {
                int line = nested.value().origin().lineNumber();
                throw new ConfigException.Parse(line > 0 ? origin.withLineNumber(line) : origin, "nested more than "
                        + MAX_DEPTH + " levels deep (objects, lists or the parts of a dotted key): flatten it");
            }
            // keySet() and get(), not entrySet(): that hashes every value, recursively
            if (nested.value() instanceof ConfigObject object) {
                for (String key : object.keySet()) {
                    pending.push(new Nested(object.get(key), nested.depth() + 1));
                }
            } else if (nested.value() instanceof ConfigList list) {
                for (ConfigValue item : list) {
                    pending.push(new Nested(item, nested.depth() + 1));
                }
            }
        }
    }

    /** Refuses the {@value #MAX_SUBSTITUTIONS}+1st substitution or append, at its line. */
    private static void checkSubstitutions(String text, ConfigOrigin origin) {
        int[] count = {0};
        scan(text, (at, line) -> {
            boolean substitution = text.startsWith("${", at);
            if ((substitution || text.startsWith("+=", at)) && ++count[0] > MAX_SUBSTITUTIONS) {
                throw new ConfigException.Parse(origin.withLineNumber(line), "more than " + MAX_SUBSTITUTIONS
                        + " substitutions (${...}) and appends (+=); JMCA refuses more in one file, because"
                        + " resolving them takes time and memory that grow steeply with their number");
            }
            return false;
        });
    }

    /** The line of the first include statement, or -1 (the includer refuses it without knowing where). */
    private static int includeLine(String text) {
        int[] found = {-1};
        scan(text, (at, line) -> {
            if (text.startsWith("include", at) && startsStatement(text, at) && includeFollows(text, at + 7)) {
                found[0] = line;
                return true;
            }
            return false;
        });
        return found[0];
    }

    private static boolean startsStatement(String text, int at) {
        int i = at - 1;
        while (i >= 0 && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i--;
        }
        return i < 0 || text.charAt(i) == '\n' || text.charAt(i) == '{' || text.charAt(i) == ',';
    }

    private static boolean includeFollows(String text, int at) {
        int i = at;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i > at && (text.startsWith("\"", i) || text.startsWith("url(", i) || text.startsWith("file(", i)
                || text.startsWith("classpath(", i) || text.startsWith("required(", i));
    }

    /** Sees a position of the text outside strings and comments; true stops the scan. */
    private interface Visitor {
        boolean visit(int at, int line);
    }

    /** Walks the text once, skipping quoted strings ("..." and """...""") and comments (# and //). */
    private static void scan(String text, Visitor visitor) {
        int line = 1;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (c == '#' || c == '/' && text.startsWith("//", i)) {
                int newline = text.indexOf('\n', i);
                i = newline < 0 ? n : newline;
            } else if (text.startsWith("\"\"\"", i)) {
                int close = text.indexOf("\"\"\"", i + 3);
                int end = close < 0 ? n : close + 3;
                while (end < n && text.charAt(end) == '"') {
                    end++; // """ ends at the last quote of a run
                }
                for (int k = i; k < end; k++) {
                    line += text.charAt(k) == '\n' ? 1 : 0;
                }
                i = end;
            } else if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"' && text.charAt(i) != '\n') {
                    i += text.charAt(i) == '\\' && i + 1 < n && text.charAt(i + 1) != '\n' ? 2 : 1;
                }
                i += i < n && text.charAt(i) == '"' ? 1 : 0;
            } else {
                if (visitor.visit(i, line)) {
                    return;
                }
                i++;
            }
        }
    }

    /** Thrown by the includer; turned into a located {@link ConfigException.Parse} by {@link #parse}. */
    private static final class RefusedInclude extends ConfigException {
        private static final long serialVersionUID = 1L;

        RefusedInclude(String what) {
            super(what + " is refused: JMCA reads this file alone, without include (copy the settings in)");
        }
    }

    /** An includer that includes nothing, and takes no fallback (Typesafe Config's default one). */
    private static final class RefusingIncluder
            implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL, ConfigIncluderClasspath {
        @Override
        public ConfigIncluder withFallback(ConfigIncluder fallback) {
            return this;
        }

        @Override
        public ConfigObject include(ConfigIncludeContext context, String what) {
            throw new RefusedInclude("include \"" + what + "\"");
        }

        @Override
        public ConfigObject includeFile(ConfigIncludeContext context, File what) {
            throw new RefusedInclude("include file(\"" + what + "\")");
        }

        @Override
        public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
            throw new RefusedInclude("include url(\"" + what + "\")");
        }

        @Override
        public ConfigObject includeResources(ConfigIncludeContext context, String what) {
            throw new RefusedInclude("include classpath(\"" + what + "\")");
        }
    }
}
