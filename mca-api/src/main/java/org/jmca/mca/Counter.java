package org.jmca.mca;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A counter a component's modules keep while a job runs, declared once so that
 * {@code jmca-info --pvars} can list it before any job exists and the module can read it as a
 * {@link PerformanceVariable}.
 *
 * @param name        "framework_component_counter", as parameters are named
 * @param description what is counted
 */
public record Counter(String name, String description) {
    public Counter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
    }

    /** The counter as a module reads it. */
    public PerformanceVariable readBy(LongSupplier reader) {
        return new PerformanceVariable(name, description, reader);
    }
}
