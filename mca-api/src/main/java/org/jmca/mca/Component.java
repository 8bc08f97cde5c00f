package org.jmca.mca;

import org.jmca.mca.param.ParameterRegistrar;

/**
 * A plug-in of one framework, found through {@link java.util.ServiceLoader} as a provider of
 * this interface (in {@code META-INF/services/org.jmca.mca.Component} on the class path, or
 * {@code provides org.jmca.mca.Component with ...} on the module path).
 *
 * <p>Lifecycle, in this order and on one thread: {@link #registerParameters} → the framework
 * opens (its read-only parameters freeze) → {@link #probe} → selection → the framework's SPI
 * creates modules from the selected components → modules finalize → {@link #close}.
 *
 * <p>A component implements its framework's SPI ({@code BtlComponent}, {@code PmlComponent},
 * {@code CollComponent}, {@code ProgressComponent}), never this interface directly.
 */
public interface Component {

    /** The framework this component plugs into; fixed by the SPI interface it implements. */
    Framework framework();

    /** Short lower-case name, unique within the framework: {@code tcp}, {@code ob1}, {@code tuned}. */
    String name();

    /** The component's version; by default the {@code Implementation-Version} of its jar. */
    default String version() {
        String version = getClass().getPackage().getImplementationVersion();
        return version == null ? "unknown" : version;
    }

    /**
     * The priority it is selected with unless {@code <framework>_<component>_priority} says
     * otherwise. Higher wins; negative means "never select".
     */
    int defaultPriority();

    /** Registers the component's parameters; names are prefixed with {@code <framework>_<component>_}. */
    default void registerParameters(ParameterRegistrar registrar) {
    }

    /**
     * Says whether the component can run in this process, cheaply and without keeping resources
     * (no sockets, no mappings): {@code jmca-info} calls it too. A component that cannot run says
     * why, in words a user understands.
     */
    default Availability probe() {
        return Availability.AVAILABLE;
    }

    /** The counters this component's modules keep while a job runs ({@code jmca-info --pvars} lists them). */
    default java.util.List<Counter> counters() {
        return java.util.List.of();
    }

    /**
     * The tables the component decides by, as the lines {@code jmca-info --tables} prints (coll/gm's
     * selection map); a table the parameters name is read and checked here, so errors show.
     */
    default java.util.List<String> tables() {
        return java.util.List.of();
    }

    /** Releases what the component holds; called once, after its modules are finalized. */
    default void close() {
    }
}
