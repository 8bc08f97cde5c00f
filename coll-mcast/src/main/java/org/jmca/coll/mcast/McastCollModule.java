package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollTable;

/**
 * coll/mcast on one communicator: broadcast over the reliable multicast, allreduce as a reduce to
 * rank 0 (by the module below) followed by a multicast broadcast, and, SMP-aware, alltoall through
 * one leader per host. Messages above {@code coll_mcast_max_size} (blocks above
 * {@code coll_mcast_alltoall_max_block}) go to the module below (coll/tuned), as the paper does.
 */
final class McastCollModule implements CollModule {
    private final McastEngine engine;
    private final McastChannel channel;
    private final CollCommunicator communicator;
    private CollTable below;

    McastCollModule(McastEngine engine, McastChannel channel, CollCommunicator communicator) {
        this.engine = engine;
        this.channel = channel;
        this.communicator = communicator;
    }

    @Override
    public Set<CollFunction> provides() {
        return engine.settings.smpAware() ? EnumSet.of(CollFunction.BCAST, CollFunction.ALLREDUCE, CollFunction.ALLTOALL)
                : EnumSet.of(CollFunction.BCAST, CollFunction.ALLREDUCE);
    }

    @Override
    public void enable(CollTable below) {
        this.below = below;
    }

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        long bytes = call.bytes(call.count());
        if (function == CollFunction.ALLTOALL) {
            if (bytes > engine.settings.alltoallMaxBlock()) {
                log(function, bytes, "point-to-point by " + below.provider(function).orElseThrow().component()
                        + " (blocks above coll_mcast_alltoall_max_block=" + engine.settings.alltoallMaxBlock() + ")");
                return below.module(function).start(function, call);
            }
            log(function, bytes, "through one leader per host");
            return bytes == 0 ? CollRequest.COMPLETE : new LeaderAlltoall(communicator, channel.topology, call);
        }
        if (bytes > engine.settings.maxBytes()) {
            synchronized (engine) {
                engine.counters.fallbacks++;
            }
            log(function, bytes, "point-to-point by " + below.provider(function).orElseThrow().component()
                    + " (above coll_mcast_max_size=" + engine.settings.maxBytes() + ")");
            return below.module(function).start(function, call);
        }
        if (bytes == 0) {
            return CollRequest.COMPLETE;
        }
        MemorySegment message = call.recv().asSlice(0, bytes);
        log(function, bytes, "multicast, " + engine.settings.reliability().name().toLowerCase());
        if (function == CollFunction.BCAST) {
            return new BcastCall(engine, channel, message, call.root(), call.tag());
        }
        MemorySegment contribution = call.inPlace() && communicator.rank() != 0 ? call.recv() : call.send();
        CollCall reduce = CollCall.of(contribution, call.recv(), call.count(), call.elementSize(), 0, call.op(),
                call.tag());
        CollRequest first = below.module(CollFunction.REDUCE).start(CollFunction.REDUCE, reduce);
        CollRequest then = new BcastCall(engine, channel, message, 0, call.tag());
        return () -> first.test() && then.test();
    }

    private void log(CollFunction function, long bytes, String how) {
        if (communicator.verbosity() >= 2) {
            communicator.log("coll:mcast: " + function.id() + " of " + bytes + " B on " + communicator.size()
                    + " ranks: " + how);
        }
    }

    @Override
    public void free() {
        engine.free(channel);
    }

    @Override
    public String describe(CollFunction function) {
        McastSettings s = engine.settings;
        String scheme = switch (s.reliability()) {
            case ACK -> "ack every " + s.ackEvery();
            case COROOT -> s.coroots() + " co-roots, ack every " + s.ackEvery();
            case NACK -> "nack";
        };
        if (function == CollFunction.ALLTOALL) {
            return "through one leader per host, blocks up to " + s.alltoallMaxBlock() + " B, on "
                    + channel.topology.hosts() + " hosts";
        }
        return (function == CollFunction.ALLREDUCE ? "reduce, then " : "") + "multicast up to " + s.maxBytes()
                + " B (" + scheme + ", window " + s.window() + (s.smpAware() ? ", SMP-aware on "
                + channel.topology.hosts() + " hosts" : "") + ") on " + engine.description();
    }
}
