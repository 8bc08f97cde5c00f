package org.jmca.mca.coll;

import java.util.Optional;
import org.jmca.mca.Component;
import org.jmca.mca.Framework;

/**
 * A collective component. Every available one is asked, for each new communicator, whether it
 * serves it; modules are enabled from the lowest priority to the highest, each replacing the
 * functions it provides.
 */
public interface CollComponent extends Component {

    @Override
    default Framework framework() {
        return Framework.COLL;
    }

    /**
     * Offers a module for a communicator, or nothing when the component does not serve it.
     *
     * @param communicatorSize the number of processes in the communicator
     */
    Optional<CollModule> query(int communicatorSize);
}
