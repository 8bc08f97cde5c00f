package org.jmca.coll.mcast;

import java.nio.ByteBuffer;

/**
 * An unreliable datagram service with multicast groups: what coll/mcast needs of IP multicast
 * over UDP (and of UD multicast on verbs). Datagrams may be lost, duplicated or reordered.
 */
interface Carrier extends AutoCloseable {

    /** Which carrier coll/mcast uses ({@code coll_mcast_carrier}). */
    enum Kind {
        /** IP multicast over UDP on a network interface. */
        UDP,
        /** UD multicast on btl/verbs's device. */
        VERBS
    }

    /** This process's unicast address, the same kind of number at every rank, for others to {@link #unicast} to. */
    long address();

    /** The largest datagram it carries. */
    int maxDatagram();

    /** Starts receiving what is multicast to group {@code group} (any number: the carrier maps it to one of its groups). */
    void join(int group);

    void leave(int group);

    /** Sends the datagram between {@code packet}'s position and limit to every member of {@code group}. */
    void multicast(int group, ByteBuffer packet);

    /** Sends the datagram to one process. */
    void unicast(long address, ByteBuffer packet);

    /** Receives the next datagram into {@code into} (cleared, then flipped), or returns false if none waits. */
    boolean receive(ByteBuffer into);

    /** For reports: {@code UDP multicast on eth0 (192.0.2.2), port 21345}. */
    String description();

    @Override
    void close();
}
