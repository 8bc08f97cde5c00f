package org.jmca.rte;

import java.util.List;
import org.jmca.config.info.InfoSection;

/** jmca-info's line on the wire-up a process started here, with this environment, would use. */
public final class WireUpInfo implements InfoSection {
    @Override
    public List<String> lines() {
        return List.of("Wire-up: " + WireUp.describe(System.getenv()));
    }
}
