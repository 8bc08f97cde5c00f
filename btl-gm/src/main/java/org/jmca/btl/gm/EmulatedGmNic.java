package org.jmca.btl.gm;

import java.nio.file.Path;
import org.jmca.mca.gm.GmNic;
import org.jmca.mca.gm.GmPort;

/** The emulated GM NIC of one process: node {@code rank + 1} of the job's fabric on this host. */
record EmulatedGmNic(Path fabric, int node, int nodes, EmulatedGmPort.Settings settings) implements GmNic {

    @Override
    public int nodeOf(int jobRank) {
        return jobRank >= 0 && jobRank < nodes ? jobRank + 1 : -1;
    }

    @Override
    public GmPort open(int port, int sendTokens, int receiveTokens) {
        return EmulatedGmPort.open(fabric, node, nodes, port, new EmulatedGmPort.Settings(settings.ringCapacity(),
                sendTokens, receiveTokens, settings.registrationBaseNanos(), settings.registrationNanosPerPage()));
    }

    @Override
    public String description() {
        return "emulated GM NIC (node " + node + " of " + nodes + ")";
    }
}
