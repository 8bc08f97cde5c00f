package org.jmca.mca.param;

/**
 * What a component is given to register its parameters. Names are short ({@code eager_limit});
 * the registrar prefixes them with the framework and component ({@code btl_tcp_eager_limit}).
 * Called on the thread that opens the frameworks, before the component is probed.
 */
@FunctionalInterface
public interface ParameterRegistrar {
    /**
     * Registers a parameter and returns its handle, already holding the value from the highest
     * source that sets it.
     *
     * @throws ParameterException if a source sets it to a value of the wrong type
     */
    <T> Param<T> register(ParameterSpec<T> spec);
}
