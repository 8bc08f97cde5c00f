package org.jmca.mca.param;

import java.util.Objects;

/**
 * A parameter setting as a source gives it: a name and text, not yet checked against any
 * registered parameter.
 */
public record RawValue(String name, String text, ValueSource source) {
    public RawValue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
    }
}
