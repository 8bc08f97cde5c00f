package org.jmca.btl.gm;

import java.nio.file.Path;
import java.util.Map;
import org.jmca.common.gm.GmNic;
import org.jmca.common.gm.GmPort;
import org.jmca.mca.btl.Peer;

/**
 * The emulated GM NIC of one process: node {@code rank + 1} of the job's fabric. It reaches the
 * nodes of its host through the fabric directory and, with a wire, those of other hosts (or,
 * with {@code btl_gm_wire socket}, every node) over TCP; a node it cannot reach has no node id.
 */
final class EmulatedGmNic implements GmNic {
    static final String WIRE_KEY = "gm.wire";

    private final Path fabric;
    private final int node;
    private final int nodes;
    private final EmulatedGmPort.Settings settings;
    private final String hostname;
    private final GmWire wire;
    private final boolean everyNodeByWire;
    /** By node: reachable (this node, nodes on this host, nodes the wire knows). */
    private final boolean[] reachable;

    /**
     * @param wire            null: this host only
     * @param everyNodeByWire reach even this host's nodes over the wire (to test it on one host)
     */
    EmulatedGmNic(Path fabric, int node, int nodes, EmulatedGmPort.Settings settings, String hostname, GmWire wire,
                  boolean everyNodeByWire) {
        this.fabric = fabric;
        this.node = node;
        this.nodes = nodes;
        this.settings = settings;
        this.hostname = hostname;
        this.wire = wire;
        this.everyNodeByWire = everyNodeByWire;
        this.reachable = new boolean[nodes + 1];
        reachable[node] = true;
    }

    int node() {
        return node;
    }

    EmulatedGmPort.Settings settings() {
        return settings;
    }

    /** What peers need to reach this NIC: its wire's address. */
    Map<String, String> address() {
        return wire == null ? Map.of() : Map.of(WIRE_KEY, wire.address());
    }

    /** Learns how to reach {@code peer}'s node; false if it cannot be reached. */
    boolean learn(Peer peer, int peerNode) {
        boolean sameHost = peer.hostname().equals(hostname);
        String at = peer.addresses().get(WIRE_KEY);
        if (peerNode != node && wire != null && at != null && (everyNodeByWire || !sameHost)) {
            wire.learn(peerNode, at);
            reachable[peerNode] = true;
        } else if (sameHost) {
            reachable[peerNode] = true;
        }
        return reachable[peerNode];
    }

    @Override
    public int nodeOf(int jobRank) {
        int id = jobRank + 1;
        return id >= 1 && id <= nodes && reachable[id] ? id : -1;
    }

    /** The port btl/gm itself uses. */
    EmulatedGmPort open(int port) {
        return EmulatedGmPort.open(fabric, node, nodes, port, settings, wire);
    }

    @Override
    public GmPort open(int port, int sendTokens, int receiveTokens) {
        return EmulatedGmPort.open(fabric, node, nodes, port, new EmulatedGmPort.Settings(settings.ringCapacity(),
                sendTokens, receiveTokens, settings.registrationBaseNanos(), settings.registrationNanosPerPage()), wire);
    }

    /** Stops the wire, once every port is closed. */
    void close() {
        if (wire != null) {
            wire.close();
        }
    }

    @Override
    public String description() {
        return "emulated GM NIC (node " + node + " of " + nodes + (wire == null ? "" : ", with a TCP wire") + ")";
    }
}
