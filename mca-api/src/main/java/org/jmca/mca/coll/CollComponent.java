package org.jmca.mca.coll;

import java.util.List;
import org.jmca.mca.Component;
import org.jmca.mca.Framework;
import org.jmca.mca.PerformanceVariable;

/**
 * A collective component. Every selected one is asked, for each new communicator, whether it
 * serves it; modules are enabled from the lowest priority to the highest, each replacing the
 * functions it provides.
 */
public interface CollComponent extends Component {

    @Override
    default Framework framework() {
        return Framework.COLL;
    }

    /**
     * Whether the component serves intercommunicators. Those that do not (the default) are not
     * queried for one: their algorithms work within one group.
     */
    default boolean servesIntercommunicators() {
        return false;
    }

    /** Offers a module for {@code communicator}, or says why it does not serve it. */
    CollOffer query(CollCommunicator communicator);

    /** The counters of this process's modules, read as performance variables while the job runs. */
    default List<PerformanceVariable> performanceVariables() {
        return List.of();
    }
}
