package org.jmca.btl.self;

import java.util.List;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/** {@code btl/self}: messages a process sends to itself. Always available. */
public final class SelfBtlComponent implements BtlComponent {
    private Param<Long> maxSendSize;

    @Override
    public String name() {
        return "self";
    }

    @Override
    public int defaultPriority() {
        return 0;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        maxSendSize = registrar.register(ParameterSpec.builder("max_send_size", ParamType.SIZE, 256L * 1024)
                .help("Largest fragment to oneself; also the eager limit, so most messages to self go in one piece.")
                .level(5)
                .build());
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        return List.of(new SelfBtlModule(environment.rank(), maxSendSize.get()));
    }
}
