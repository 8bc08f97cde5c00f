package org.jmca.mca.param;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Every registered parameter of a process, resolved against the settings its sources give.
 *
 * <p>The sources arrive as one list of {@link RawValue}s ordered from lowest to highest
 * precedence (defaults files first, the command line last), so the last setting of a name wins.
 * A value is parsed when its parameter registers: a wrong type fails then, naming the parameter,
 * the text, its source and the expected type. Names that no parameter claims are reported by
 * {@link #unknownNameWarnings()} with the closest registered name.
 *
 * <p>Registration happens on one thread while the frameworks open; reads may come from any.
 */
public final class ParameterRegistry {
    private final List<RawValue> settings;
    private final Map<String, Param<?>> params = new TreeMap<>();
    private final Map<String, String> synonymOf = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    /** @param settingsLowestFirst every source's settings, lowest precedence first */
    public ParameterRegistry(List<RawValue> settingsLowestFirst) {
        this.settings = List.copyOf(settingsLowestFirst);
    }

    /** A registry with no sources: every parameter takes its default. */
    public static ParameterRegistry withDefaultsOnly() {
        return new ParameterRegistry(List.of());
    }

    /**
     * Registers a parameter under its full name.
     *
     * @throws ParameterException if the name is taken or a source sets a value of the wrong type
     */
    public synchronized <T> Param<T> register(ParameterSpec<T> spec) {
        String name = spec.name();
        if (params.containsKey(name) || synonymOf.containsKey(name)) {
            throw new ParameterException("parameter " + name + " is registered twice");
        }
        RawValue winner = null;
        for (RawValue setting : settings) {
            if (setting.name().equals(name) || spec.synonyms().contains(setting.name())) {
                winner = setting;
            }
        }
        Param<T> param = winner == null
                ? new Param<>(spec, spec.defaultValue(), ValueSource.DEFAULT)
                : new Param<>(spec, parse(spec, winner), winner.source());
        if (winner != null && !winner.name().equals(name)) {
            warnings.add("parameter " + winner.name() + " (" + winner.source() + ") is deprecated; use " + name);
        }
        params.put(name, param);
        spec.synonyms().forEach(synonym -> synonymOf.put(synonym, name));
        return param;
    }

    /** A registrar that prefixes short names with {@code prefix_}, for one component. */
    public ParameterRegistrar prefixed(String prefix) {
        return new ParameterRegistrar() {
            @Override
            public <T> Param<T> register(ParameterSpec<T> spec) {
                return ParameterRegistry.this.register(spec.withName(prefix + "_" + spec.name()));
            }
        };
    }

    public synchronized Optional<Param<?>> find(String name) {
        Param<?> param = params.get(name);
        if (param == null && synonymOf.containsKey(name)) {
            param = params.get(synonymOf.get(name));
        }
        return Optional.ofNullable(param);
    }

    /** Every registered parameter, sorted by name. */
    public synchronized Collection<Param<?>> all() {
        return List.copyOf(params.values());
    }

    /** Makes the read-only parameters whose names match read-only from now on (their framework opened). */
    public synchronized void freeze(Predicate<String> names) {
        params.values().stream().filter(p -> names.test(p.name())).forEach(Param::freeze);
    }

    /**
     * Sets a parameter from text through the API.
     *
     * @throws ParameterException if the name is unknown, the text has the wrong type or the
     *                            parameter is read-only now
     */
    public void setFromApi(String name, String text) {
        Param<?> param = find(name).orElseThrow(() -> new ParameterException(
                "unknown MCA parameter '" + name + "' (API)" + suggestion(name)));
        setParsed(param, new RawValue(name, text, new ValueSource(ValueSource.Kind.API, "")));
    }

    private static <T> void setParsed(Param<T> param, RawValue raw) {
        param.set(parse(param.spec(), raw));
    }

    /** Deprecation notices gathered so far, one line each. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * One warning per name that a source sets but no registered parameter (or synonym) claims,
     * each with the closest registered name.
     */
    public synchronized List<String> unknownNameWarnings() {
        Set<String> reported = new LinkedHashSet<>();
        List<String> result = new ArrayList<>();
        for (RawValue setting : settings) {
            String name = setting.name();
            if (!params.containsKey(name) && !synonymOf.containsKey(name) && reported.add(name + setting.source())) {
                result.add("unknown MCA parameter '" + name + "' (" + setting.source() + ")" + suggestion(name));
            }
        }
        return Collections.unmodifiableList(result);
    }

    private String suggestion(String name) {
        return params.keySet().stream()
                .min(Comparator.comparingInt((String known) -> EditDistance.between(name, known))
                        .thenComparing(Comparator.naturalOrder()))
                .map(closest -> "; did you mean '" + closest + "'?")
                .orElse("");
    }

    private static <T> T parse(ParameterSpec<T> spec, RawValue raw) {
        try {
            return spec.type().parse(raw.text());
        } catch (IllegalArgumentException e) {
            throw new ParameterException("parameter " + spec.name() + " from " + raw.source() + ": "
                    + e.getMessage(), e);
        }
    }
}
