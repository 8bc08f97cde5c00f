package org.jmca.coll.mcast;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.coll.CollCommunicator;

/**
 * coll/mcast in one process: the carrier, the communicators' channels, and progress: the
 * datagrams that arrived, handed to their channels, and the channels' retransmission timers.
 * Every method runs under the engine's lock.
 */
final class McastEngine implements AutoCloseable {
    final McastSettings settings;
    final Carrier carrier;
    final int job;
    /** Message bytes per datagram: coll_mcast_fragment_size, or less where the carrier's datagrams are smaller. */
    final int fragmentBytes;
    final McastCounters counters = new McastCounters();
    final ByteBuffer out = ByteBuffer.allocate(Packet.MAX_DATAGRAM).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer in = ByteBuffer.allocate(Packet.MAX_DATAGRAM).order(ByteOrder.LITTLE_ENDIAN);
    private final FaultInjection faults;
    private final List<McastChannel> channels = new ArrayList<>();
    private final Map<Integer, McastChannel> byIdentity = new HashMap<>();

    /**
     * @param job    the job's number, in every datagram
     * @param stream this process's stream of injected faults (its job rank)
     */
    McastEngine(Carrier carrier, McastSettings settings, int job, long stream) {
        this.carrier = carrier;
        this.settings = settings;
        this.job = job;
        this.fragmentBytes = Math.min(settings.fragmentBytes(), carrier.maxDatagram() - Packet.HEADER);
        this.faults = new FaultInjection(settings.faults(), stream);
    }

    /** The channel of a new communicator; a rank that leads its host joins the communicator's group now. */
    synchronized McastChannel open(CollCommunicator communicator, Topology topology) {
        int identity = identity(communicator);
        McastChannel channel = new McastChannel(this, communicator, identity, topology, groupOf(identity));
        byIdentity.put(identity, channel);
        channels.add(channel);
        return channel;
    }

    /**
     * The communicator is freed: the channel sends the acknowledgements it owes and leaves its
     * group; it stays until every message it keeps as root or co-root is acknowledged, since
     * its broadcasts completed here before the receivers had them.
     */
    synchronized void free(McastChannel channel) {
        channel.free();
        if (removeIfDone(channel)) {
            channels.remove(channel);
        }
    }

    private boolean removeIfDone(McastChannel channel) {
        if (!channel.freed() || channel.keepsMessages()) {
            return false;
        }
        byIdentity.remove(channel.identity, channel);
        return true;
    }

    /**
     * A communicator's number in datagrams: its context and its members' job ranks, since the
     * communicators a split makes share one context.
     */
    private static int identity(CollCommunicator communicator) {
        int h = communicator.contextId();
        for (int r = 0; r < communicator.size(); r++) {
            h = 31 * h + communicator.jobRank(r);
        }
        return h;
    }

    /** The group of a communicator, by the job and the communicator, so jobs and communicators rarely share one. */
    private int groupOf(int identity) {
        return Integer.rotateLeft(job * 0x9E3779B1 + identity * 0x85EBCA6B, 13) * 0xC2B2AE35;
    }

    /** One turn: the datagrams that arrived, then every channel's timers. */
    synchronized int progress() {
        int events = 0;
        while (faults.receive(carrier, in)) {
            events++;
            if (in.remaining() < Packet.HEADER || Packet.job(in) != job) {
                counters.strays++;
                continue;
            }
            McastChannel channel = byIdentity.get(Packet.communicator(in));
            if (channel != null) {
                channel.receive(in);
            } else {
                counters.strays++;
            }
        }
        if (!channels.isEmpty()) {
            long now = System.nanoTime();
            for (McastChannel channel : channels) {
                channel.answerQuestions();
                channel.tick(now);
            }
            channels.removeIf(this::removeIfDone);
        }
        return events;
    }

    String description() {
        return carrier.description();
    }

    @Override
    public synchronized void close() {
        channels.forEach(McastChannel::close);
        channels.clear();
        carrier.close();
    }
}
