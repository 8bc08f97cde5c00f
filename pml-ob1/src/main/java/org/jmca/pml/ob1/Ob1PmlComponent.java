package org.jmca.pml.ob1;

import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.pml.PmlComponent;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;

/** {@code pml/ob1}: matching and the eager and rendezvous protocols over the selected BTLs. */
public final class Ob1PmlComponent implements PmlComponent {
    private Param<Integer> verbose;

    @Override
    public String name() {
        return "ob1";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        verbose = registrar.register(ParameterSpec.builder("verbose", ParamType.INT, 0)
                .help("Above 0: print, for each peer, the BTL its messages take.")
                .level(4)
                .build());
    }

    @Override
    public java.util.List<org.jmca.mca.Counter> counters() {
        return Ob1PmlModule.COUNTERS;
    }

    @Override
    public PmlModule createModule(PmlEnvironment environment) {
        Ob1PmlModule module = new Ob1PmlModule(environment);
        if (verbose.get() > 0) {
            module.describeRoutes().forEach(line -> System.err.println("jmca: " + line));
        }
        return module;
    }
}
