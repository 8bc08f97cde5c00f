package org.jmca.mca;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A counter a module keeps while the job runs, read in the manner of an MPI_T performance
 * variable: by name, at any time, from the thread that calls MPI.
 *
 * @param name        "framework_component_counter", as parameters are named
 * @param description what is counted
 * @param reader      reads the current value
 */
public record PerformanceVariable(String name, String description, LongSupplier reader) {
    public PerformanceVariable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(reader, "reader");
    }

    public long read() {
        return reader.getAsLong();
    }
}
