package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jmca.coll.base.Algorithm;
import org.jmca.coll.base.Algorithms;
import org.jmca.coll.base.Schedule;
import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollTable;

/**
 * coll/sm on a communicator that spans hosts, in two levels as Open MPI's coll/han: shared memory
 * among each host's ranks, and the hosts' leaders (each host's first rank) by coll/base's
 * algorithms over point-to-point. Barrier, bcast and allreduce with a commutative operation; the
 * rest, and what does not fit a slot, stays with the module below.
 *
 * <ul>
 *   <li>barrier: the host's barrier, the leaders' (recursive doubling), the host's again;</li>
 *   <li>bcast: the root's host first, from the root; then the leaders, from the root's leader
 *       (binomial); then every other host, from its leader;</li>
 *   <li>allreduce: each host reduces to its leader, the leaders allreduce (recursive doubling),
 *       each host broadcasts its leader's result.</li>
 * </ul>
 */
final class TwoLevelModule implements CollModule {
    static final Set<CollFunction> FUNCTIONS = EnumSet.of(CollFunction.BARRIER, CollFunction.BCAST,
            CollFunction.ALLREDUCE);
    private static final Algorithm LEADERS_BARRIER = algorithm(CollFunction.BARRIER, 3);
    private static final Algorithm LEADERS_BCAST = algorithm(CollFunction.BCAST, 6);
    private static final Algorithm LEADERS_ALLREDUCE = algorithm(CollFunction.ALLREDUCE, 3);

    private final CollCommunicator comm;
    private final HostGroups groups;
    /** The host's shared-memory module; null where this rank is alone on its host. */
    private final SmCollModule host;
    /** The leaders' communicator; null unless this rank leads its host. */
    private final CollCommunicator leaders;
    private final long slotBytes;
    private final CallOrder order;
    private CollTable below;

    TwoLevelModule(CollCommunicator comm, HostGroups groups, SmCollModule host, long slotBytes) {
        this.comm = comm;
        this.groups = groups;
        this.host = host;
        this.leaders = groups.leader() ? groups.leaders() : null;
        this.slotBytes = slotBytes;
        this.order = new CallOrder(comm);
    }

    private static Algorithm algorithm(CollFunction function, int number) {
        return Algorithms.find(function, number).orElseThrow();
    }

    @Override
    public Set<CollFunction> provides() {
        return FUNCTIONS;
    }

    @Override
    public void enable(CollTable below) {
        this.below = below;
    }

    @Override
    public String describe(CollFunction function) {
        return "two levels: shared memory on each of " + groups.hosts.size() + " hosts, the leaders by "
                + leaderAlgorithm(function) + ", up to " + slotBytes + " B, else "
                + SmCollModule.belowName(below, function);
    }

    private static Algorithm leaderAlgorithm(CollFunction function) {
        return switch (function) {
            case BARRIER -> LEADERS_BARRIER;
            case BCAST -> LEADERS_BCAST;
            default -> LEADERS_ALLREDUCE;
        };
    }

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        return run(function, call, false);
    }

    @Override
    public CollRequest startBlocking(CollFunction function, CollCall call) {
        return run(function, call, true);
    }

    private CollRequest run(CollFunction function, CollCall call, boolean blocking) {
        String declined = decline(function, call);
        if (declined != null) {
            CollModule module = SmCollModule.fallBack(comm, below, function, call, declined);
            return blocking ? module.startBlocking(function, call) : module.start(function, call);
        }
        if (comm.verbosity() >= 2) {
            comm.log("coll:sm: " + function.id() + " of " + call.bytes(call.count()) + " B on " + comm.size()
                    + " ranks: two levels (" + groups.hosts.size() + " hosts)");
        }
        List<Supplier<CollRequest>> steps = new ArrayList<>(3);
        switch (function) {
            case BARRIER -> {
                onHost(steps, CollFunction.BARRIER, call, blocking);
                amongLeaders(steps, LEADERS_BARRIER, call);
                onHost(steps, CollFunction.BARRIER, call, blocking);
            }
            case BCAST -> {
                int rootHost = groups.hostOf[call.root()];
                CollCall here = CollCall.of(null, call.recv(), call.count(), call.elementSize(),
                        groups.myHost() == rootHost ? groups.indexOnHost[call.root()] : 0, null, call.tag());
                if (groups.myHost() == rootHost) {
                    onHost(steps, CollFunction.BCAST, here, blocking);
                }
                amongLeaders(steps, LEADERS_BCAST, CollCall.of(null, call.recv(), call.count(), call.elementSize(),
                        rootHost, null, call.tag()));
                if (groups.myHost() != rootHost) {
                    onHost(steps, CollFunction.BCAST, here, blocking);
                }
            }
            default -> { // allreduce
                // in place, a rank's operand is in its receive buffer; only the leader receives
                MemorySegment operand = call.send() != null || groups.leader() ? call.send() : call.recv();
                onHost(steps, CollFunction.REDUCE, CollCall.of(operand, groups.leader() ? call.recv() : null,
                        call.count(), call.elementSize(), 0, call.op(), call.tag()), blocking);
                if (host == null && call.send() != null) { // alone on the host: the leaders reduce from recv
                    steps.add(() -> {
                        MemorySegment.copy(call.send(), 0, call.recv(), 0, call.bytes(call.count()));
                        return CollRequest.COMPLETE;
                    });
                }
                amongLeaders(steps, LEADERS_ALLREDUCE, CollCall.of(null, call.recv(), call.count(), call.elementSize(),
                        0, call.op(), call.tag()));
                onHost(steps, CollFunction.BCAST, CollCall.of(null, call.recv(), call.count(), call.elementSize(), 0,
                        null, call.tag()), blocking);
            }
        }
        return new Steps(steps).advance();
    }

    /** Why this call goes to the module below, or null if it is served here. */
    private String decline(CollFunction function, CollCall call) {
        if (!order.fresh(call.tag())) {
            return "the tag of an earlier call, used again";
        }
        if (call.bytes(call.count()) > slotBytes) {
            return call.bytes(call.count()) + " B, above coll_sm_slot_size=" + slotBytes;
        }
        if (function == CollFunction.ALLREDUCE && !call.op().commutative()) {
            return "a non-commutative operation, which two levels would combine out of rank order";
        }
        return null;
    }

    private void onHost(List<Supplier<CollRequest>> steps, CollFunction function, CollCall call, boolean blocking) {
        if (host != null) {
            long seq = host.reserve();
            steps.add(() -> host.step(function, call, seq, blocking));
        }
    }

    private void amongLeaders(List<Supplier<CollRequest>> steps, Algorithm algorithm, CollCall call) {
        if (leaders != null) {
            steps.add(() -> {
                Schedule schedule = new Schedule(leaders, call.tag());
                algorithm.steps().add(schedule, call, Tuning.DEFAULT);
                return schedule.start();
            });
        }
    }

    @Override
    public void free() {
        if (host != null) {
            host.free();
        }
    }

    /** The steps of one call, each started once the one before it completed. */
    private static final class Steps implements CollRequest {
        private final List<Supplier<CollRequest>> steps;
        private int next;
        private CollRequest current = CollRequest.COMPLETE;

        Steps(List<Supplier<CollRequest>> steps) {
            this.steps = steps;
        }

        Steps advance() {
            test();
            return this;
        }

        @Override
        public boolean test() {
            while (current.test()) {
                if (next == steps.size()) {
                    return true;
                }
                current = steps.get(next++).get();
            }
            return false;
        }
    }
}
