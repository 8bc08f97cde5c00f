package org.jmca.coll.gm;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jmca.coll.base.Algorithm;
import org.jmca.coll.base.Algorithms;
import org.jmca.config.UserHocon;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.param.ParamType;

/**
 * coll/gm's selection map: for each collective, rules that give the algorithm (and its segment
 * size and fan-out) by communicator size and message size, as the CollGM paper's maps did. The
 * map ships as a HOCON table; a user's map replaces the rules of every collective it names, and
 * is checked as a rules table is: an error names its file and line.
 *
 * <pre>
 * bcast = [
 *   { msg_size_min = 0,    alg = binomial }
 *   { comm_size_min = 4, msg_size_min = 128k, alg = pipeline, segment = 64k }
 * ]
 * </pre>
 *
 * The rule with the largest {@code comm_size_min} not above the communicator's size decides,
 * among those the one with the largest {@code msg_size_min} not above the message's size.
 *
 * <p>A map is read as {@link UserHocon} reads a user's HOCON: no {@code include}, substitutions
 * ({@code ${name}}) resolved within the file only (not from the environment) and bounded in
 * number, and a nesting too deep for the HOCON reader is an error naming the file.
 */
final class SelectionMap {
    static final String SHIPPED = "coll/gm's shipped selection map";
    /** The broadcasts coll/gm writes itself (forwarding from receive buffers), by tree shape. */
    static final Set<String> GM_BCASTS = Set.of("binomial", "binary", "nary", "pipeline", "chain");
    private static final List<String> KEYS = List.of("comm_size_min", "msg_size_min", "alg", "segment", "fanout");

    /** One rule; {@code fanout} 0 means coll_gm_tree_fanout. */
    record Rule(int commSizeMin, long msgSizeMin, String alg, long segment, int fanout, String origin) {
        String describe() {
            return alg + (segment > 0 ? ", segment " + ParamType.SIZE.format(segment) : "")
                    + (fanout > 0 ? ", fan-out " + fanout : "");
        }
    }

    private final Map<CollFunction, List<Rule>> rules;
    private final String source;

    private SelectionMap(Map<CollFunction, List<Rule>> rules, String source) {
        this.rules = rules;
        this.source = source;
    }

    /** The shipped map, with the collectives {@code file} names replaced by its rules (null: the shipped one alone). */
    static SelectionMap load(Path file) {
        Map<CollFunction, List<Rule>> shipped = parse(shippedText(), SHIPPED);
        if (file == null) {
            return new SelectionMap(shipped, SHIPPED);
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new McaException("coll_gm_selection_map=" + file + ": cannot read it: it is not UTF-8 text");
        } catch (IOException e) {
            throw new McaException("coll_gm_selection_map=" + file + ": cannot read it: " + e.getMessage());
        }
        Map<CollFunction, List<Rule>> merged = new EnumMap<>(shipped);
        merged.putAll(parse(text, file.toString()));
        return new SelectionMap(merged, file.toString());
    }

    private static String shippedText() {
        try (InputStream in = SelectionMap.class.getResourceAsStream("selection-map.conf")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String source() {
        return source;
    }

    /** The info key that forces {@code function}'s algorithm on one communicator: {@code coll_gm_bcast}. */
    static String hintKey(CollFunction function) {
        return "coll_gm_" + function.id();
    }

    /**
     * This map for {@code communicator}: each collective whose info key ({@link #hintKey}) it has
     * takes that key's one rule, {@code ALG[:SEGMENT[:FANOUT]]} ("pipeline:64k"), a JMCA extension
     * with which one job measures every algorithm side by side ({@code jmca-tune --component gm}).
     *
     * @throws McaException naming the key, its value and the communicator, for a value that is wrong
     */
    SelectionMap forcedBy(CollCommunicator communicator) {
        Map<CollFunction, List<Rule>> forced = new EnumMap<>(rules);
        for (CollFunction function : CollFunction.values()) {
            String value = communicator.hint(hintKey(function));
            if (value != null) {
                forced.put(function, List.of(forcedRule(function, value, communicator.name())));
            }
        }
        return forced.equals(rules) ? this : new SelectionMap(forced, source + ", forced by info keys");
    }

    private static Rule forcedRule(CollFunction function, String value, String communicator) {
        String[] parts = value.split(":", 3);
        String where = "info key " + hintKey(function) + "=" + value + " of " + communicator;
        if (!names(function).contains(parts[0])) {
            throw new McaException(where + ": " + function.id() + " has no algorithm '" + parts[0] + "'; it has "
                    + String.join(", ", names(function)) + " (the value is ALG[:SEGMENT[:FANOUT]])");
        }
        try {
            return new Rule(1, 0, parts[0], parts.length > 1 ? ParamType.SIZE.parse(parts[1]) : 0,
                    parts.length > 2 ? ParamType.INT.parse(parts[2]) : 0, where);
        } catch (IllegalArgumentException e) {
            throw new McaException(where + ": " + e.getMessage() + " (the value is ALG[:SEGMENT[:FANOUT]])");
        }
    }

    /** The rule for {@code function} on {@code size} ranks and messages of {@code bytes} bytes. */
    Rule choose(CollFunction function, int size, long bytes) {
        Rule best = null;
        for (Rule rule : rules.get(function)) {
            if (rule.commSizeMin() <= size && rule.msgSizeMin() <= bytes && (best == null
                    || rule.commSizeMin() > best.commSizeMin()
                    || rule.commSizeMin() == best.commSizeMin() && rule.msgSizeMin() > best.msgSizeMin())) {
                best = rule;
            }
        }
        return best != null ? best : rules.get(function).getFirst();
    }

    /** The map as {@code jmca-info --tables} prints it. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("coll/gm selection map (" + source + "; coll_gm_selection_map replaces it collective by collective):");
        for (Map.Entry<CollFunction, List<Rule>> entry : rules.entrySet()) {
            lines.add("  " + entry.getKey().id() + ":");
            for (Rule rule : entry.getValue()) {
                lines.add(String.format("    from %d ranks, from %s: %s  [%s]", rule.commSizeMin(),
                        ParamType.SIZE.format(rule.msgSizeMin()) + " B", rule.describe(), rule.origin()));
            }
        }
        return lines;
    }

    /** The coll/base algorithm a rule names (the broadcasts of {@link #GM_BCASTS} are coll/gm's own). */
    static Algorithm algorithm(CollFunction function, String name) {
        return Algorithms.of(function).stream().filter(a -> a.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(function.id() + " has no algorithm " + name));
    }

    /** The algorithm names a rule of {@code function} may give. */
    static List<String> names(CollFunction function) {
        List<String> names = new ArrayList<>();
        if (function == CollFunction.BCAST) {
            names.addAll(GM_BCASTS.stream().sorted().toList());
        }
        Algorithms.of(function).stream().map(Algorithm::name).filter(n -> !names.contains(n)).forEach(names::add);
        return names;
    }

    // ---- reading --------------------------------------------------------------------------------

    private static Map<CollFunction, List<Rule>> parse(String text, String origin) {
        ConfigObject root;
        try {
            root = UserHocon.parse(text, origin, ConfigSyntax.CONF, ConfigResolveOptions.noSystem()).root();
        } catch (ConfigException e) {
            int line = e.origin() != null ? e.origin().lineNumber() : -1;
            String prefix = e.origin() != null ? e.origin().description() + ": " : "";
            String reason = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length())
                    : e.getMessage();
            throw error(origin, line, "not a valid HOCON table: " + reason);
        }
        Map<CollFunction, List<Rule>> rules = new EnumMap<>(CollFunction.class);
        List<Map.Entry<String, ConfigValue>> entries = root.entrySet().stream()
                .sorted(Comparator.comparingInt(e -> e.getValue().origin().lineNumber())).toList();
        for (Map.Entry<String, ConfigValue> entry : entries) {
            CollFunction function = Arrays.stream(CollFunction.values()).filter(f -> f.id().equals(entry.getKey()))
                    .findFirst().orElseThrow(() -> error(origin, line(entry.getValue()), "unknown collective '"
                            + entry.getKey() + "'; the collectives are " + Arrays.stream(CollFunction.values())
                            .map(CollFunction::id).collect(Collectors.joining(", "))));
            rules.put(function, rulesOf(function, entry.getValue(), origin));
        }
        return rules;
    }

    private static List<Rule> rulesOf(CollFunction function, ConfigValue value, String origin) {
        if (value.valueType() != ConfigValueType.LIST || ((ConfigList) value).isEmpty()) {
            throw error(origin, line(value), function.id() + " must be a list of rules [ { ... } ], not "
                    + describe(value));
        }
        List<Rule> rules = new ArrayList<>();
        for (ConfigValue item : (ConfigList) value) {
            Rule rule = rule(function, item, origin);
            for (Rule other : rules) {
                if (other.commSizeMin() == rule.commSizeMin() && other.msgSizeMin() == rule.msgSizeMin()) {
                    throw error(origin, line(item), function.id() + " has two rules for communicators from "
                            + rule.commSizeMin() + " ranks and messages from " + rule.msgSizeMin() + " bytes (the"
                            + " other at line " + other.origin().replaceFirst(".*:", "") + ")");
                }
            }
            rules.add(rule);
        }
        return List.copyOf(rules);
    }

    private static Rule rule(CollFunction function, ConfigValue item, String origin) {
        if (item.valueType() != ConfigValueType.OBJECT) {
            throw error(origin, line(item), "a rule of " + function.id() + " must be an object { ... }, not "
                    + describe(item));
        }
        ConfigObject object = (ConfigObject) item;
        for (Map.Entry<String, ConfigValue> field : object.entrySet()) {
            if (!KEYS.contains(field.getKey())) {
                throw error(origin, line(field.getValue()), "unknown key '" + field.getKey() + "' in a rule of "
                        + function.id() + "; the keys are " + String.join(", ", KEYS));
            }
        }
        ConfigValue alg = object.get("alg");
        if (alg == null || alg.valueType() != ConfigValueType.STRING) {
            throw error(origin, line(item), "a rule of " + function.id() + " needs alg = <name>, one of "
                    + String.join(", ", names(function)));
        }
        String name = (String) alg.unwrapped();
        if (!names(function).contains(name)) {
            throw error(origin, line(alg), function.id() + " has no algorithm '" + name + "'; it has "
                    + String.join(", ", names(function)));
        }
        int commSizeMin = (int) number(object, "comm_size_min", 2, 1, origin, false);
        long msgSizeMin = number(object, "msg_size_min", 0, 0, origin, true);
        long segment = number(object, "segment", 0, 0, origin, true);
        int fanout = (int) number(object, "fanout", 0, 1, origin, false);
        return new Rule(commSizeMin, msgSizeMin, name, segment, fanout, origin + ":" + line(item));
    }

    /** A whole number (or, where {@code size}, a size such as 64k) of at least {@code min}. */
    private static long number(ConfigObject object, String key, long fallback, long min, String origin, boolean size) {
        ConfigValue value = object.get(key);
        if (value == null) {
            return fallback;
        }
        // the type first: unwrapped() recurses into a (deeply nested) list or object
        Object raw = value.valueType() == ConfigValueType.NUMBER || value.valueType() == ConfigValueType.STRING
                ? value.unwrapped() : null;
        long number;
        try {
            number = raw instanceof Number n && n.doubleValue() == n.longValue() ? n.longValue()
                    : size && raw instanceof String s ? ParamType.SIZE.parse(s) : Long.parseLong(String.valueOf(raw));
        } catch (RuntimeException e) {
            throw error(origin, line(value), key + " = " + describe(value) + " is not "
                    + (size ? "a size (65536, 64k)" : "a whole number"));
        }
        if (number < min) {
            throw error(origin, line(value), key + " = " + describe(value) + " must be at least " + min);
        }
        if (number > Integer.MAX_VALUE && !size) {
            throw error(origin, line(value), key + " = " + describe(value) + " must be at most " + Integer.MAX_VALUE);
        }
        return number;
    }

    /** A value for a message: a plain one as written, a list or object by its kind (render() recurses). */
    private static String describe(ConfigValue value) {
        return switch (value.valueType()) {
            case LIST -> "a list";
            case OBJECT -> "an object";
            default -> abbreviated(value.render());
        };
    }

    private static String abbreviated(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "\u2026 (" + text.length() + " characters)";
    }

    private static int line(ConfigValue value) {
        return value.origin().lineNumber();
    }

    private static McaException error(String origin, int line, String message) {
        return new McaException(origin + (line > 0 ? ":" + line : "") + ": " + message);
    }
}
