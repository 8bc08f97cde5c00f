package org.jmca.mca.btl;

import java.util.List;
import org.jmca.mca.Component;
import org.jmca.mca.Framework;

/** A byte transfer layer component. Multi-select: every available one makes its modules. */
public interface BtlComponent extends Component {

    @Override
    default Framework framework() {
        return Framework.BTL;
    }

    /** Makes the component's modules (one per network interface, device or port). */
    List<BtlModule> createModules(BtlEnvironment environment);
}
