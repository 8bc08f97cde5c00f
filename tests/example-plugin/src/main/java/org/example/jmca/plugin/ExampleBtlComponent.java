package org.example.jmca.plugin;

import java.util.List;
import org.jmca.mca.Availability;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/example}: a component written outside JMCA. It is found on the class path (or the
 * module path) through {@code META-INF/services/org.jmca.mca.Component}, registers a parameter
 * whose default its own {@code reference.conf} overrides, and reaches no peer (it makes no
 * module), so jobs run unchanged with it present.
 */
public final class ExampleBtlComponent implements BtlComponent {
    private Param<String> greeting;

    @Override
    public String name() {
        return "example";
    }

    @Override
    public String version() {
        return "1.0-example";
    }

    @Override
    public int defaultPriority() {
        return 5;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        greeting = registrar.register(ParameterSpec.builder("greeting", ParamType.STRING, "hello from the code")
                .help("A greeting that shows where a plug-in's parameter values come from.")
                .level(1)
                .build());
    }

    @Override
    public Availability probe() {
        return greeting.get().isBlank() ? Availability.unavailable("btl_example_greeting is empty") : Availability.AVAILABLE;
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        return List.of();
    }
}
