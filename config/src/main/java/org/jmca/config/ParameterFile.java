package org.jmca.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;

/**
 * Reads a parameter file in either of two syntaxes.
 *
 * <p><b>Open MPI's</b>: one {@code name = value} per line, {@code #} comments; the value is the
 * rest of the line, so {@code btl = ^tcp} and {@code btl = self,sm} work as they do in Open MPI.
 * A file whose every line has that form is read this way.
 *
 * <p><b>HOCON</b> (Typesafe Config) otherwise: nested objects are joined with {@code _}, so
 * {@code btl.tcp { eager_limit = 64k }} sets {@code btl_tcp_eager_limit}, and a list such as
 * {@code btl = [self, tcp]} becomes {@code self,tcp}. In HOCON {@code btl = [...]} and an object
 * {@code btl { ... }} are one key and the later replaces the earlier, so a file that sets a
 * framework's list nests its settings under {@code btl_tcp { ... }} instead.
 *
 * <p>Every value carries its file and line; a file that is neither is an error naming both.
 * HOCON is read as {@link UserHocon} reads a user's file: no {@code include}, a bounded number of
 * substitutions, and too deep a nesting is an error naming the file. A list value holds plain
 * values only ({@code [self, tcp]}); a list of lists or objects, or a null in a list, is an error.
 */
public final class ParameterFile {

    private ParameterFile() {
    }

    /**
     * Reads a file.
     *
     * @throws ParameterException naming the file and line of the first thing it cannot read
     */
    public static List<RawValue> read(Path file, ValueSource.Kind kind) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new ParameterException(kind.label() + " " + file + " cannot be read: it is not UTF-8 text", e);
        } catch (IOException e) {
            throw new ParameterException(kind.label() + " " + file + " cannot be read: " + e.getMessage(), e);
        }
        return parse(text, file.toString(), kind);
    }

    /** Reads a {@code reference.conf} resource: only its {@code jmca} object is JMCA's. */
    static List<RawValue> readReference(URL resource) {
        String name = resource.toString();
        Config config;
        try {
            config = ConfigFactory.parseURL(resource, ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            throw error(ValueSource.Kind.REFERENCE_CONF, name, e);
        }
        return config.hasPath("jmca")
                ? flatten(config.getConfig("jmca").resolve(), name, ValueSource.Kind.REFERENCE_CONF)
                : List.of();
    }

    /** Parses file text; {@code name} is how the file is named in values' sources and errors. */
    static List<RawValue> parse(String text, String name, ValueSource.Kind kind) {
        List<RawValue> openMpi = parseOpenMpi(text, name, kind);
        if (openMpi != null) {
            return openMpi;
        }
        Config config;
        try {
            // resolved with the environment as fallback, as HOCON's ${HOME} means
            config = UserHocon.parse(text, name, ConfigSyntax.CONF, ConfigResolveOptions.defaults());
        } catch (ConfigException e) {
            throw error(kind, name, e);
        }
        return flatten(config, name, kind);
    }

    /** The values of an Open MPI style file, or null if some line is not {@code name = value}. */
    private static List<RawValue> parseOpenMpi(String text, String name, ValueSource.Kind kind) {
        List<RawValue> values = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] setting = openMpiLine(withoutComment(line));
            if (setting == null) {
                return null;
            }
            values.add(new RawValue(setting[0], unquote(setting[1]), ValueSource.file(kind, name, i + 1)));
        }
        return values;
    }

    /*
     * The two scans below read what the regular expressions
     *   "\\s+#.*$" (removed with replaceFirst) and
     *   "\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*([^\\s{\\[].*?)?\\s*" (matched whole)
     * read, where a blank is what regex \s matches (ASCII space, tab, \n, \x0B, \f, \r), in one pass
     * each: the expressions backtrack, and took seconds on a line with a long run of blanks inside.
     */

    /** Regex {@code \s}: the blanks around a name, an '=', a value and a trailing comment. */
    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** The line without its trailing comment: from the first blanks followed by '#' on. */
    static String withoutComment(String line) {
        for (int i = 1; i < line.length(); i++) {
            if (line.charAt(i) == '#' && blank(line.charAt(i - 1))) {
                int start = i - 1;
                while (start > 0 && blank(line.charAt(start - 1))) {
                    start--;
                }
                return line.substring(0, start);
            }
        }
        return line;
    }

    /**
     * {@code {name, value}} of a {@code name = value} line (the value without the blanks around
     * it, empty where there is none), or null where the line has another form, such as a value
     * that begins with '{' or '[' (HOCON).
     */
    static String[] openMpiLine(String line) {
        int n = line.length();
        int i = skipBlanks(line, 0);
        int nameStart = i;
        if (i >= n || !(isAsciiLetter(line.charAt(i)) || line.charAt(i) == '_')) {
            return null;
        }
        i++;
        while (i < n && (isAsciiLetter(line.charAt(i)) || line.charAt(i) == '_'
                || line.charAt(i) >= '0' && line.charAt(i) <= '9')) {
            i++;
        }
        String key = line.substring(nameStart, i);
        i = skipBlanks(line, i);
        if (i >= n || line.charAt(i) != '=') {
            return null;
        }
        i = skipBlanks(line, i + 1);
        int end = n;
        while (end > i && blank(line.charAt(end - 1))) {
            end--;
        }
        if (i < end && (line.charAt(i) == '{' || line.charAt(i) == '[')) {
            return null;
        }
        return new String[] {key, line.substring(i, end)};
    }

    private static int skipBlanks(String line, int from) {
        int i = from;
        while (i < line.length() && blank(line.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }

    private static String unquote(String value) {
        boolean quoted = value.length() >= 2
                && (value.startsWith("\"") && value.endsWith("\"") || value.startsWith("'") && value.endsWith("'"));
        return quoted ? value.substring(1, value.length() - 1) : value;
    }

    /**
     * The leaves of a HOCON tree as settings, nested keys joined with {@code _}. The tree is walked
     * by hand because {@code Config.entrySet()} drops null values, which must be reported.
     */
    private static List<RawValue> flatten(Config config, String name, ValueSource.Kind kind) {
        record Located(int line, RawValue value) { }
        List<Located> values = new ArrayList<>();
        Deque<Map.Entry<String, ConfigValue>> pending = new ArrayDeque<>(config.root().entrySet());
        while (!pending.isEmpty()) {
            Map.Entry<String, ConfigValue> entry = pending.pop();
            ConfigValue value = entry.getValue();
            if (value instanceof ConfigObject object) {
                object.forEach((key, child) -> pending.push(Map.entry(entry.getKey() + "_" + key, child)));
                continue;
            }
            int line = value.origin().lineNumber();
            ValueSource source = ValueSource.file(kind, name, line);
            values.add(new Located(line, new RawValue(entry.getKey(), text(value, entry.getKey(), source), source)));
        }
        // The walk has no order, and a.b and a_b name one parameter: the later line wins.
        values.sort(Comparator.comparingInt(Located::line));
        return values.stream().map(Located::value).toList();
    }

    private static String text(ConfigValue value, String key, ValueSource source) {
        if (value.valueType() == ConfigValueType.LIST) {
            // item by item: unwrapped() recurses, and a list of lists or objects has no parameter text
            List<String> items = new ArrayList<>();
            for (ConfigValue item : (ConfigList) value) {
                if (item.valueType() == ConfigValueType.LIST || item.valueType() == ConfigValueType.OBJECT
                        || item.valueType() == ConfigValueType.NULL) {
                    throw new ParameterException(source + ": " + key + " is a list holding "
                            + (item.valueType() == ConfigValueType.LIST ? "a list" : item.valueType()
                            == ConfigValueType.OBJECT ? "an object" : "null") + "; a parameter's list holds plain"
                            + " values, as in " + key + " = [self, tcp]");
                }
                items.add(String.valueOf(item.unwrapped()));
            }
            return String.join(",", items);
        }
        if (value.valueType() == ConfigValueType.NULL) {
            throw new ParameterException(source + ": " + key + " is null; give it a value or remove it");
        }
        return String.valueOf(value.unwrapped());
    }

    private static ParameterException error(ValueSource.Kind kind, String name, ConfigException e) {
        int line = e.origin() == null ? -1 : e.origin().lineNumber();
        String reason = e.getMessage();
        // Typesafe Config starts its messages with "name: line: " (or "name: " without a line); keep only the reason.
        int cut = reason.indexOf(": ", reason.indexOf(": ") + 2);
        if (line > 0 && cut > 0 && reason.startsWith(name)) {
            reason = reason.substring(cut + 2);
        } else if (line <= 0 && reason.startsWith(name + ": ")) {
            reason = reason.substring(name.length() + 2);
        }
        return new ParameterException(kind.label() + " " + (line > 0 ? name + ":" + line : name) + ": " + reason
                + " (JMCA reads Open MPI's 'name = value' lines, or HOCON)", e);
    }
}
