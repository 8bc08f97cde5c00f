package org.jmca.coll.gm;

import java.nio.file.Path;
import org.jmca.btl.gm.EmulatedGmPort;
import org.jmca.common.gm.GmNic;
import org.jmca.common.gm.GmPort;

/** One NIC of a test's emulated fabric: node {@code node} of {@code nodes}, its ports' rings of {@code ringCapacity} bytes. */
record TestNic(Path fabric, int node, int nodes, int ringCapacity) implements GmNic {
    @Override
    public int nodeOf(int jobRank) {
        return jobRank + 1;
    }

    @Override
    public GmPort open(int port, int sendTokens, int receiveTokens) {
        return EmulatedGmPort.open(fabric, node, nodes, port, new EmulatedGmPort.Settings(ringCapacity, sendTokens,
                receiveTokens, 0, 0));
    }

    @Override
    public String description() {
        return "test NIC " + node;
    }
}
