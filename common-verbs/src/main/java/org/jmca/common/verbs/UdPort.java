package org.jmca.common.verbs;

import java.nio.ByteBuffer;

/**
 * A UD queue pair on a verbs device: datagrams of at most {@link #maxDatagram()} bytes, to one
 * queue pair or to every queue pair attached to a multicast group, lost when no receive is
 * posted. Used by the thread that owns progress only.
 */
public interface UdPort extends AutoCloseable {

    /** Where other processes send to this queue pair: its port's LID and its QP number, as one number. */
    long address();

    /** The largest datagram (the port's MTU). */
    int maxDatagram();

    /** Attaches to multicast group {@code group} (0 .. {@link #GROUPS} - 1, one multicast LID each). */
    void join(int group);

    void leave(int group);

    /** Sends the bytes between the packet's position and limit to every queue pair attached to {@code group}. */
    void multicast(int group, ByteBuffer packet);

    void unicast(long address, ByteBuffer packet);

    /** Copies the next datagram received (without its GRH) into {@code into}, cleared then flipped; false if none. */
    boolean receive(ByteBuffer into);

    @Override
    void close();

    /** Multicast groups a port can name: InfiniBand's multicast LIDs 0xC000-0xFFFE. */
    int GROUPS = 0xFFFE - 0xC000 + 1;
}
