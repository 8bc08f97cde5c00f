package org.jmca.mca.param;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The type of an MCA parameter: how its text (from a file, the environment or the command line)
 * becomes a value, and how a value is shown again. Values arrive as text from every source, so
 * one parser per type is the single place where a wrong value is caught.
 *
 * @param <T> the Java type of the value
 */
public final class ParamType<T> {

    /** A 32-bit signed integer. */
    public static final ParamType<Integer> INT =
            new ParamType<>("int", "an integer", text -> Integer.valueOf(text.strip()), String::valueOf, List.of());

    /** A 64-bit signed integer. */
    public static final ParamType<Long> LONG =
            new ParamType<>("long", "an integer", text -> Long.valueOf(text.strip()), String::valueOf, List.of());

    /** A byte count: a non-negative integer with an optional k, m, g or t suffix (powers of 1024). */
    public static final ParamType<Long> SIZE =
            new ParamType<>("size", "a byte count such as 4096, 64k, 1m or 2g", ParamType::parseSize,
                    ParamType::formatSize, List.of());

    /** A boolean: true/false, 1/0, yes/no, on/off (any case), as Open MPI accepts. */
    public static final ParamType<Boolean> BOOL =
            new ParamType<>("bool", "a boolean (true/false, 1/0, yes/no, on/off)", ParamType::parseBool,
                    String::valueOf, List.of());

    /** A double-precision number. */
    public static final ParamType<Double> DOUBLE =
            new ParamType<>("double", "a number", ParamType::parseDouble, String::valueOf, List.of());

    /** Free text. */
    public static final ParamType<String> STRING =
            new ParamType<>("string", "text", Function.identity(), Function.identity(), List.of());

    /** A comma-separated list of names; blanks around commas are ignored. */
    public static final ParamType<List<String>> LIST =
            new ParamType<>("list", "a comma-separated list", ParamType::parseList,
                    values -> String.join(",", values), List.of());

    private final String name;
    private final String expected;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final List<Enumerator> enumerators;

    private ParamType(String name, String expected, Function<String, T> parser,
                      Function<T, String> formatter, List<Enumerator> enumerators) {
        this.name = name;
        this.expected = expected;
        this.parser = parser;
        this.formatter = formatter;
        this.enumerators = enumerators;
    }

    /**
     * An enumeration, accepted by name (any case) or by number. The number of a constant is its
     * {@link Numbered#number()} if the enum implements {@link Numbered}, else its ordinal.
     */
    public static <E extends Enum<E>> ParamType<E> enumOf(Class<E> type) {
        E[] constants = type.getEnumConstants();
        List<Enumerator> enumerators = Arrays.stream(constants)
                .map(c -> new Enumerator(numberOf(c), c.name().toLowerCase(Locale.ROOT)))
                .toList();
        String expected = "one of " + enumerators.stream().map(Enumerator::toString)
                .collect(Collectors.joining(", "));
        Function<String, E> parser = text -> {
            String wanted = text.strip();
            for (E constant : constants) {
                if (constant.name().equalsIgnoreCase(wanted) || String.valueOf(numberOf(constant)).equals(wanted)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("no such value");
        };
        return new ParamType<>("enum", expected, parser, c -> c.name().toLowerCase(Locale.ROOT), enumerators);
    }

    /**
     * An enumeration given as numbered names (Open MPI's algorithm parameters: 0 ignore,
     * 1 basic_linear, ...), accepted by name (any case) or number; the value is the number.
     */
    public static ParamType<Integer> numbered(List<Enumerator> values) {
        List<Enumerator> enumerators = List.copyOf(values);
        String expected = "one of " + enumerators.stream().map(Enumerator::toString).collect(Collectors.joining(", "));
        Function<String, Integer> parser = text -> {
            String wanted = text.strip();
            for (Enumerator e : enumerators) {
                if (e.name().equalsIgnoreCase(wanted) || String.valueOf(e.number()).equals(wanted)) {
                    return e.number();
                }
            }
            throw new IllegalArgumentException("no such value");
        };
        Function<Integer, String> formatter = n -> enumerators.stream().filter(e -> e.number() == n)
                .map(Enumerator::name).findFirst().orElse(String.valueOf(n));
        return new ParamType<>("enum", expected, parser, formatter, enumerators);
    }

    /** Implemented by an enum whose constants carry numbers of their own (as Open MPI's do). */
    public interface Numbered {
        int number();
    }

    /** One value of an enumerated type, as {@code jmca-info} lists it. */
    public record Enumerator(int number, String name) {
        @Override
        public String toString() {
            return number + ":" + name;
        }
    }

    public String name() {
        return name;
    }

    /** What a valid value looks like, in words: "a byte count such as 4096, 64k, 1m or 2g". */
    public String expected() {
        return expected;
    }

    /** The values of an enumerated type; empty for the other types. */
    public List<Enumerator> enumerators() {
        return enumerators;
    }

    /**
     * Parses a value.
     *
     * @throws IllegalArgumentException naming the text and what was expected
     */
    public T parse(String text) {
        Objects.requireNonNull(text, "text");
        try {
            return Objects.requireNonNull(parser.apply(text));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not " + expected + " (type " + name + ")", e);
        }
    }

    /** Shows a value the way {@link #parse} reads it back. */
    public String format(T value) {
        return formatter.apply(value);
    }

    @SuppressWarnings("unchecked")
    String formatUnchecked(Object value) {
        return formatter.apply((T) value);
    }

    @Override
    public String toString() {
        return name;
    }

    private static int numberOf(Enum<?> constant) {
        return constant instanceof Numbered numbered ? numbered.number() : constant.ordinal();
    }

    /** Size suffixes, each a further factor of 1024: k = 2^10 ... t = 2^40. */
    private static final String SIZE_SUFFIXES = "kmgt";

    private static Long parseSize(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = s.isEmpty() ? 0 : 10 * (SIZE_SUFFIXES.indexOf(s.charAt(s.length() - 1)) + 1);
        if (shift != 0) {
            s = s.substring(0, s.length() - 1).strip();
        }
        long number = Long.parseLong(s);
        if (number < 0) {
            throw new IllegalArgumentException("negative size");
        }
        if (number != 0 && Long.numberOfLeadingZeros(number) <= shift) {
            throw new ArithmeticException("size overflows 64 bits");
        }
        return number << shift;
    }

    private static String formatSize(Long bytes) {
        long b = bytes;
        for (int i = SIZE_SUFFIXES.length() - 1; i >= 0 && b != 0; i--) {
            int shift = 10 * (i + 1);
            if ((b & ((1L << shift) - 1)) == 0) {
                return (b >>> shift) + String.valueOf(SIZE_SUFFIXES.charAt(i));
            }
        }
        return String.valueOf(b);
    }

    private static Boolean parseBool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on", "enabled" -> Boolean.TRUE;
            case "false", "0", "no", "off", "disabled" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not a boolean");
        };
    }

    private static Double parseDouble(String text) {
        double value = Double.parseDouble(text.strip());
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("not a finite number");
        }
        return value;
    }

    private static List<String> parseList(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
