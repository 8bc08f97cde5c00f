package org.jmca.mca.param;

import java.util.Objects;
import org.jmca.mca.McaException;

/**
 * A registered parameter: its declaration, its current value and where that value came from.
 * Reads are safe from any thread; {@link #set} is for the API and obeys the scope.
 */
public final class Param<T> {
    private final ParameterSpec<T> spec;
    private volatile Setting<T> setting;
    private volatile boolean frozen;

    private record Setting<T>(T value, ValueSource source) { }

    Param(ParameterSpec<T> spec, T value, ValueSource source) {
        this.spec = spec;
        this.setting = new Setting<>(value, source);
    }

    public ParameterSpec<T> spec() {
        return spec;
    }

    public String name() {
        return spec.name();
    }

    public T get() {
        return setting.value();
    }

    /** Where the current value came from. */
    public ValueSource source() {
        return setting.source();
    }

    /** The current value as text, in the form the parameter's type reads. */
    public String formatted() {
        return spec.type().format(get());
    }

    /** True when the parameter's framework is open and its scope is read-only. */
    public boolean isReadOnly() {
        return frozen && spec.scope() == Scope.READ_ONLY;
    }

    /**
     * Sets the value through the API, the highest source of all.
     *
     * @throws ParameterException if the parameter is read-only now
     */
    public void set(T value) {
        Objects.requireNonNull(value, "value");
        if (isReadOnly()) {
            throw new ParameterException("parameter " + name() + " is read-only once its framework is open"
                    + " (scope read-only); set it with --mca " + name() + " VALUE or JMCA_MCA_" + name() + " instead");
        }
        setting = new Setting<>(value, new ValueSource(ValueSource.Kind.API, ""));
    }

    /**
     * The error to throw when this parameter's value cannot work: it names the parameter, its
     * value and where the value came from, then says why ({@code "is below " + other} reads
     * "btl_sm_max_send_size=1k (command line --mca) is below btl_sm_eager_limit=4k (default)").
     */
    public McaException invalid(String why) {
        return new McaException(this + " " + why);
    }

    void freeze() {
        frozen = true;
    }

    @Override
    public String toString() {
        return name() + "=" + formatted() + " (" + source() + ")";
    }
}
