package org.jmca.coll.mcast;

import java.nio.ByteBuffer;
import org.jmca.common.verbs.UdDevice;
import org.jmca.common.verbs.UdPort;

/**
 * UD multicast on btl/verbs's device (the software verbs device, or an HCA): the paper's own
 * carrier. Datagrams are at most one MTU; a datagram that finds no receive posted is lost.
 */
final class VerbsCarrier implements Carrier {
    /** Receives kept posted: a window of messages in full-MTU fragments fits. */
    private static final int RECEIVES = 512;

    private final UdPort port;
    private final String description;

    VerbsCarrier(UdDevice device) {
        this.port = device.open(RECEIVES);
        this.description = "UD multicast on the verbs device " + device.description();
    }

    @Override
    public long address() {
        return port.address();
    }

    @Override
    public int maxDatagram() {
        return port.maxDatagram();
    }

    private static int mlidIndex(int group) {
        return Math.floorMod(group, UdPort.GROUPS);
    }

    @Override
    public void join(int group) {
        port.join(mlidIndex(group));
    }

    @Override
    public void leave(int group) {
        port.leave(mlidIndex(group));
    }

    @Override
    public void multicast(int group, ByteBuffer packet) {
        port.multicast(mlidIndex(group), packet);
    }

    @Override
    public void unicast(long address, ByteBuffer packet) {
        port.unicast(address, packet);
    }

    @Override
    public boolean receive(ByteBuffer into) {
        return port.receive(into);
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        port.close();
    }
}
