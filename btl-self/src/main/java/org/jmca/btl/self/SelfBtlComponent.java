package org.jmca.btl.self;

import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.param.ParameterRegistrar;

/** {@code btl/self}: messages a process sends to itself. Always available. */
public final class SelfBtlComponent implements BtlComponent {
    /**
     * Exclusivity highest of all (a process always reaches itself through self); no latency to
     * speak of; the eager limit as large as a fragment, so most messages to self go in one piece.
     */
    static final BtlProperties DEFAULTS = new BtlProperties(65536, 0, 1_000_000, 256L * 1024, 256L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND));

    private BtlBaseParameters common;

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
        common = BtlBaseParameters.register(registrar, DEFAULTS);
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        return List.of(new SelfBtlModule(environment.rank(), common.properties()));
    }
}
