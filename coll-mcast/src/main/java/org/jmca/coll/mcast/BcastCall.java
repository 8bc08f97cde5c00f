package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.jmca.coll.mcast.Topology.Plan;
import org.jmca.coll.mcast.Topology.Role;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.pml.PmlRequest;

/**
 * One broadcast at one rank, by its role: the root copies the message into its window and
 * returns; a co-root receives it from the root point-to-point; a member takes it from the
 * multicast; a local rank from its host's leader, or from the multicast once attached. Leaders
 * then pass it on to the ranks of their host and complete when those sends have.
 */
final class BcastCall implements CollRequest {
    private final McastEngine engine;
    private final McastChannel channel;
    private final MemorySegment buffer;
    private final Plan plan;
    private final Role role;
    private final int seq;
    private final int tag;
    private final long startNanos = System.nanoTime();
    private boolean started;
    private boolean received;
    private boolean done;
    private PmlRequest fromAbove;
    private MemorySegment scratch;
    private final List<PmlRequest> forwards = new ArrayList<>();
    private long nackDue;

    BcastCall(McastEngine engine, McastChannel channel, MemorySegment buffer, int root, int tag) {
        this.engine = engine;
        this.channel = channel;
        this.buffer = buffer;
        this.plan = channel.topology.plan(root);
        this.role = plan.role[channel.rank];
        this.seq = channel.nextSeq();
        this.tag = tag;
    }

    @Override
    public boolean test() {
        if (done) {
            return true;
        }
        synchronized (engine) {
            engine.progress();
            if (!started) {
                if (!channel.ready(tag)) {
                    return false;
                }
                start();
            }
            if (!received && !receive()) {
                return false;
            }
            for (PmlRequest forward : forwards) {
                if (!forward.isComplete()) {
                    return false;
                }
            }
            done = true;
            return true;
        }
    }

    private void start() {
        started = true;
        int rank = channel.rank;
        if (role == Role.COROOT) {
            fromAbove = channel.communicator().irecv(buffer, plan.root, tag);
        } else if (role == Role.LOCAL) {
            boolean fromMulticastToo = channel.attached() && !channel.topology.sameHost(rank, plan.root);
            scratch = fromMulticastToo ? MemorySegment.ofArray(new byte[(int) buffer.byteSize()]) : null;
            fromAbove = channel.communicator().irecv(scratch != null ? scratch : buffer, plan.leader[rank], tag);
        }
        if (engine.settings.reliability() == Reliability.NACK) {
            nackDue = startNanos + nackDelay();
        }
    }

    /** Moves the message in; true once it is here (and passed on, for a leader). */
    private boolean receive() {
        switch (role) {
            case ROOT -> {
                if (channel.windowFull()) {
                    channel.askAboutOldest(System.nanoTime());
                    return false;
                }
                if (channel.outOfCredit(seq, plan)) {
                    channel.askForCredit(seq, plan, System.nanoTime());
                    return false;
                }
                channel.rootSend(seq, buffer, plan, tag);
            }
            case COROOT -> {
                if (!fromAbove.isComplete()) {
                    return false;
                }
                channel.corootServe(seq, buffer, plan);
            }
            case MEMBER -> {
                Assembly assembly = channel.assembled(seq);
                if (assembly == null) {
                    askIfMissing();
                    return false;
                }
                assembly.copyTo(buffer, plan.root);
            }
            case LOCAL -> {
                if (!receiveLocal()) {
                    return false;
                }
            }
        }
        received = true;
        channel.delivered(seq, plan);
        if (role != Role.ROOT) {
            for (int local : plan.locals[channel.rank]) {
                forwards.add(channel.communicator().isend(buffer, local, tag));
            }
        }
        return true;
    }

    private boolean receiveLocal() {
        if (fromAbove.isComplete()) {
            if (scratch != null) {
                MemorySegment.copy(scratch, 0, buffer, 0, buffer.byteSize());
                channel.leaderWasFirst(true);
            }
            return true;
        }
        if (scratch != null) {
            Assembly assembly = channel.assembled(seq);
            if (assembly != null) {
                assembly.copyTo(buffer, plan.root);
                channel.drain(fromAbove);
                channel.leaderWasFirst(false);
                return true;
            }
        } else if (engine.settings.smpAware() && !channel.topology.sameHost(channel.rank, plan.root)
                && System.nanoTime() - startNanos > engine.settings.attachWaitNanos()) {
            channel.attach();
        }
        return false;
    }

    /** NACK scheme: after a random delay, asks for the message unless another receiver just did. */
    private void askIfMissing() {
        if (engine.settings.reliability() != Reliability.NACK) {
            return;
        }
        long now = System.nanoTime();
        if (now < nackDue) {
            return;
        }
        if (now - channel.nackHeard(seq) < engine.settings.nackDelayNanos()) {
            nackDue = now + nackDelay();
            engine.counters.nacksSuppressed++;
            return;
        }
        Assembly partial = channel.assembling(seq);
        channel.sendNack(seq, plan, partial == null ? 0 : partial.firstMissing());
        nackDue = now + 4 * engine.settings.nackDelayNanos();
    }

    private long nackDelay() {
        long delay = engine.settings.nackDelayNanos();
        return delay + ThreadLocalRandom.current().nextLong(Math.max(1, delay));
    }
}
