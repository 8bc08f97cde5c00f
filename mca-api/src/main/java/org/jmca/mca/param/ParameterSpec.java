package org.jmca.mca.param;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The declaration of a parameter: name, type, default, help, level, scope and deprecated
 * synonyms, all in one place.
 *
 * <p>Levels follow Open MPI: 1–3 for users, 4–6 for tuners, 7–9 for developers.
 *
 * @param name         the name; short when given to a component's {@link ParameterRegistrar}
 * @param type         how the value is parsed and shown
 * @param defaultValue the value when no source sets one
 * @param help         one or two sentences for {@code jmca-info}
 * @param level        1 (basic user) to 9 (developer detail)
 * @param scope        whether the value may change after its framework is open
 * @param synonyms     full names that still work but are deprecated
 */
public record ParameterSpec<T>(String name, ParamType<T> type, T defaultValue, String help, int level,
                               Scope scope, List<String> synonyms) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    public ParameterSpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue of " + name);
        Objects.requireNonNull(scope, "scope");
        checkName(name);
        synonyms = List.copyOf(synonyms);
        synonyms.forEach(ParameterSpec::checkName);
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("parameter " + name + ": level=" + level + " is outside 1..9");
        }
        if (help == null || help.isBlank()) {
            throw new IllegalArgumentException("parameter " + name + " has no help text");
        }
    }

    /** Starts a declaration; level 1 and {@link Scope#READ_ONLY} unless told otherwise. */
    public static <T> Builder<T> builder(String name, ParamType<T> type, T defaultValue) {
        return new Builder<>(name, type, defaultValue);
    }

    /** The same declaration under another name (the registrar uses it to add the prefix). */
    public ParameterSpec<T> withName(String fullName) {
        return new ParameterSpec<>(fullName, type, defaultValue, help, level, scope, synonyms);
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "parameter name '" + name + "' must be lower-case letters, digits and '_', starting with a letter");
        }
    }

    /** Builds a {@link ParameterSpec}. */
    public static final class Builder<T> {
        private final String name;
        private final ParamType<T> type;
        private final T defaultValue;
        private String help = "";
        private int level = 1;
        private Scope scope = Scope.READ_ONLY;
        private List<String> synonyms = List.of();

        private Builder(String name, ParamType<T> type, T defaultValue) {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
        }

        public Builder<T> help(String text) {
            this.help = text;
            return this;
        }

        public Builder<T> level(int value) {
            this.level = value;
            return this;
        }

        public Builder<T> settable() {
            this.scope = Scope.SETTABLE;
            return this;
        }

        /** Full names that are deprecated but still accepted. */
        public Builder<T> synonyms(String... names) {
            this.synonyms = List.of(names);
            return this;
        }

        public ParameterSpec<T> build() {
            return new ParameterSpec<>(name, type, defaultValue, help, level, scope, synonyms);
        }
    }
}
