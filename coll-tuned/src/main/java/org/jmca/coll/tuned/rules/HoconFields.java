package org.jmca.coll.tuned.rules;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of one object of a HOCON/JSON rules file, read with the checks a rules file needs:
 * unknown keys, types and ranges, each error at the line of the value concerned.
 */
final class HoconFields {

    /** Open MPI's spelling of an unbounded maximum ("int_or_inf" in its JSON schema). */
    private static final List<String> INFINITY = List.of("inf", "Inf", "INF");

    /** Why a near-miss key is wrong, when there is more to say than "did you mean". */
    private static final Map<String, String> NOTES = Map.of(
            "segsize", " (Open MPI's classic-to-JSON converter writes 'segsize', which Open MPI's reader ignores)",
            "reducescatter", " (Open MPI's JSON schema spells it so, but its reader knows only reduce_scatter)",
            "reducescatterblock",
            " (Open MPI's JSON schema spells it so, but its reader knows only reduce_scatter_block)");

    private final Path file;
    private final ConfigObject object;
    private final String where;

    /**
     * @param where what the object is, for messages: "rule 2 of allreduce's section 1"
     * @param keys  the keys the object may have
     */
    HoconFields(Path file, ConfigValue value, String where, List<String> keys) {
        this(file, value, where, keys, "key");
    }

    /** @param keyNoun what the keys are, for "unknown ...": "key", "collective" */
    HoconFields(Path file, ConfigValue value, String where, List<String> keys, String keyNoun) {
        this.file = file;
        this.where = where;
        if (value.valueType() != ConfigValueType.OBJECT) {
            throw error(value, "expected " + where + " to be an object {...}, found " + describe(value));
        }
        this.object = (ConfigObject) value;
        object.entrySet().stream()
                .filter(e -> !keys.contains(e.getKey()))
                .min(Comparator.comparingInt(e -> e.getValue().origin().lineNumber()))
                .ifPresent(e -> {
                    String closest = ClosestName.to(e.getKey(), keys);
                    throw error(e.getValue(), "unknown " + keyNoun + " '" + e.getKey() + "' in " + where
                            + "; did you mean '" + closest + "'?" + NOTES.getOrDefault(e.getKey(), "") + " Valid "
                            + keyNoun + "s: " + String.join(", ", keys));
                });
    }

    Optional<ConfigValue> get(String key) {
        return Optional.ofNullable(object.get(key));
    }

    ConfigValue require(String key, String expected) {
        return get(key).orElseThrow(() -> error(object, where + " has no '" + key + "': expected " + expected));
    }

    /** A whole number in 0..max, or {@code fallback} when absent. */
    long wholeNumber(String key, long fallback, long max) {
        return get(key).map(v -> checked(v, key, wholeNumber(v), max, "a whole number")).orElse(fallback);
    }

    /** Like {@link #wholeNumber}, but "inf" stands for {@code max}. */
    long wholeNumberOrInf(String key, long fallback, long max) {
        return get(key).map(v -> isInfinity(v) ? max : checked(v, key, wholeNumber(v), max,
                "a whole number or \"inf\"")).orElse(fallback);
    }

    /** A byte count in 0..max: a number or a HOCON size such as "64k" or "1m" (k = 1024). */
    long bytes(String key, long fallback, long max) {
        return get(key).map(v -> checked(v, key, bytes(v), max, "a byte count such as 4096, \"64k\" or \"1m\""))
                .orElse(fallback);
    }

    /** Like {@link #bytes}, but "inf" stands for {@code max}. */
    long bytesOrInf(String key, long fallback, long max) {
        return get(key).map(v -> isInfinity(v) ? max : checked(v, key, bytes(v), max,
                "a byte count such as 4096, \"64k\" or \"1m\", or \"inf\"")).orElse(fallback);
    }

    /** A string, or {@code fallback} when absent. */
    Optional<String> string(String key) {
        return get(key).map(v -> {
            if (v.valueType() != ConfigValueType.STRING) {
                throw error(v, "expected " + key + " of " + where + " to be a string, found " + describe(v));
            }
            return (String) v.unwrapped();
        });
    }

    /** The line of a value, for the origin of rules and sections. */
    String origin(ConfigValue value) {
        return RulesFileException.origin(file, value.origin().lineNumber());
    }

    ConfigObject object() {
        return object;
    }

    String where() {
        return where;
    }

    RulesFileException error(ConfigValue at, String message) {
        return RulesFileException.at(file, at.origin().lineNumber(), message);
    }

    /** "'abc'", "1.5", "a list", "an object", "null", for "found ..." in messages. */
    static String describe(ConfigValue value) {
        return switch (value.valueType()) {
            case STRING -> "'" + value.unwrapped() + "'";
            case OBJECT -> "an object";
            case LIST -> "a list";
            case NULL -> "null";
            case NUMBER, BOOLEAN -> String.valueOf(value.unwrapped());
        };
    }

    private long checked(ConfigValue value, String key, Optional<Long> number, long max, String expected) {
        if (number.isEmpty() || number.get() < 0 || number.get() > max) {
            throw error(value, "expected " + key + " of " + where + " to be " + expected + " in "
                    + (max == Long.MAX_VALUE ? "0 or more" : "0.." + max) + ", found " + describe(value));
        }
        return number.get();
    }

    private static Optional<Long> wholeNumber(ConfigValue value) {
        // the type first: unwrapped() recurses into a (deeply nested) list or object
        return value.valueType() == ConfigValueType.NUMBER
                && (value.unwrapped() instanceof Integer || value.unwrapped() instanceof Long)
                ? Optional.of(((Number) value.unwrapped()).longValue()) : Optional.empty();
    }

    private static Optional<Long> bytes(ConfigValue value) {
        if (value.valueType() == ConfigValueType.NUMBER) {
            return wholeNumber(value);
        }
        if (value.valueType() != ConfigValueType.STRING) {
            return Optional.empty();
        }
        try {
            return Optional.of(ConfigFactory.empty().withValue("size", value).getBytes("size"));
        } catch (ConfigException e) {
            return Optional.empty();
        }
    }

    private static boolean isInfinity(ConfigValue value) {
        return value.valueType() == ConfigValueType.STRING && INFINITY.contains((String) value.unwrapped());
    }
}
