package org.jmca.mca;

import java.util.Objects;

/** A component's answer to {@link Component#probe()}: it can run here, or why it cannot. */
public sealed interface Availability {

    Availability AVAILABLE = new Available();

    static Availability unavailable(String reason) {
        return new Unavailable(reason);
    }

    /** The component can run in this process. */
    record Available() implements Availability {
    }

    /** The component cannot run here; {@code reason} says why ("no RDMA device found"). */
    record Unavailable(String reason) implements Availability {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
