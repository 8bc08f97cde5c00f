package org.jmca.coll.inter;

import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollOffer;

/**
 * {@code coll/inter}: the collectives of an intercommunicator, each linear between the groups
 * ({@link InterCollModule}). Intracommunicators it declines.
 */
public final class InterCollComponent implements CollComponent {

    @Override
    public String name() {
        return "inter";
    }

    @Override
    public int defaultPriority() {
        return 40;
    }

    @Override
    public boolean servesIntercommunicators() {
        return true;
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        return communicator.isInter() ? CollOffer.of(new InterCollModule(communicator))
                : CollOffer.declined("intercommunicators only");
    }
}
