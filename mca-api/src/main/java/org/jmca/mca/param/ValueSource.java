package org.jmca.mca.param;

import java.util.Objects;

/**
 * Where a parameter's value came from: the kind of source and, for files, the file and line.
 * The kinds are declared from lowest to highest precedence, so a higher ordinal wins.
 *
 * @param kind     which source
 * @param location the file and line, the variable or the flag; empty for {@link Kind#DEFAULT}
 */
public record ValueSource(Kind kind, String location) {

    /** The sources of a value, lowest precedence first. */
    public enum Kind {
        DEFAULT("default"),
        REFERENCE_CONF("reference.conf"),
        SYSTEM_FILE("system file"),
        USER_FILE("user file"),
        TUNE_FILE("--tune file"),
        ENVIRONMENT("environment"),
        COMMAND_LINE("command line"),
        API("API");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public static final ValueSource DEFAULT = new ValueSource(Kind.DEFAULT, "");

    public ValueSource {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
    }

    /** A value read from line {@code line} of a file. */
    public static ValueSource file(Kind kind, String file, int line) {
        return new ValueSource(kind, line > 0 ? file + ":" + line : file);
    }

    /** "user file /home/ana/.jmca/mca-params.conf:3", "environment JMCA_MCA_btl", "default". */
    @Override
    public String toString() {
        return location.isEmpty() ? kind.label() : kind.label() + " " + location;
    }
}
