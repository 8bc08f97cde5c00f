package org.jmca.coll.self;

import java.util.EnumSet;
import java.util.Set;
import org.jmca.coll.base.ScheduleModule;
import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollOffer;

/**
 * {@code coll/self}: every collective of a communicator of one process, which is a local copy
 * (the linear algorithms send nothing on one rank). High priority, as Open MPI's (75).
 */
public final class SelfCollComponent implements CollComponent {

    @Override
    public String name() {
        return "self";
    }

    @Override
    public int defaultPriority() {
        return 75;
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        if (communicator.size() != 1) {
            return CollOffer.declined("serves communicators of one process only; this one has "
                    + communicator.size());
        }
        return CollOffer.of(new ScheduleModule(name(), communicator) {
            @Override
            public Set<CollFunction> provides() {
                return EnumSet.allOf(CollFunction.class);
            }

            @Override
            protected Choice choose(CollFunction function, CollCall call) {
                return new Choice(algorithm(function, 1), Tuning.DEFAULT, () -> "one process");
            }

            @Override
            public String describe(CollFunction function) {
                return "local copy";
            }
        });
    }
}
