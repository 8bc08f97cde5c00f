package org.jmca.coll.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;
import org.junit.jupiter.api.Test;

/** Blocking calls reuse one schedule per module; non-blocking ones get their own. */
class ScheduleModuleTest {
    private static final Reduction SUM = new Reduction() {
        @Override
        public boolean commutative() {
            return true;
        }

        @Override
        public void apply(MemorySegment in, MemorySegment inout, int count) {
            for (int i = 0; i < count; i++) {
                long offset = (long) i * Long.BYTES;
                inout.set(ValueLayout.JAVA_LONG, offset, in.get(ValueLayout.JAVA_LONG, offset)
                        + inout.get(ValueLayout.JAVA_LONG, offset));
            }
        }
    };

    private static ScheduleModule allreduceModule(CollCommunicator communicator) {
        Algorithm recursiveDoubling = Algorithms.find(CollFunction.ALLREDUCE, 3).orElseThrow();
        return new ScheduleModule("test", communicator) {
            @Override
            protected Choice choose(CollFunction function, CollCall call) {
                return new Choice(recursiveDoubling, Tuning.DEFAULT, () -> "test");
            }

            @Override
            public Set<CollFunction> provides() {
                return EnumSet.of(CollFunction.ALLREDUCE);
            }
        };
    }

    /** One allreduce of {@code rank + call} on every rank; returns each rank's request and result. */
    private static List<CollRequest> allreduce(SimulatedNetwork network, List<ScheduleModule> modules, int call,
                                               boolean blocking, long[] results) {
        List<CollRequest> requests = new ArrayList<>();
        List<MemorySegment> outs = new ArrayList<>();
        for (int r = 0; r < modules.size(); r++) {
            MemorySegment in = MemorySegment.ofArray(new long[] {r + call});
            MemorySegment out = MemorySegment.ofArray(new long[1]);
            outs.add(out);
            CollCall c = CollCall.of(in, out, 1, Long.BYTES, 0, SUM, -1000 - call);
            requests.add(blocking ? modules.get(r).startBlocking(CollFunction.ALLREDUCE, c)
                    : modules.get(r).start(CollFunction.ALLREDUCE, c));
        }
        network.runAll(requests);
        for (int r = 0; r < modules.size(); r++) {
            results[r] = outs.get(r).get(ValueLayout.JAVA_LONG, 0);
        }
        return requests;
    }

    @Test
    void blockingCallsReuseTheirScheduleAndStillComputeEachCallAnew() {
        SimulatedNetwork network = new SimulatedNetwork(4);
        List<ScheduleModule> modules = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            modules.add(allreduceModule(network.rank(r)));
        }
        long[] results = new long[4];
        List<CollRequest> first = allreduce(network, modules, 0, true, results);
        assertThat(results).containsOnly(0 + 1 + 2 + 3);
        List<CollRequest> second = allreduce(network, modules, 1, true, results);
        assertThat(results).containsOnly(1 + 2 + 3 + 4);
        for (int r = 0; r < 4; r++) {
            assertThat(second.get(r)).isSameAs(first.get(r));
        }
        List<CollRequest> nonBlocking = allreduce(network, modules, 2, false, results);
        assertThat(results).containsOnly(2 + 3 + 4 + 5);
        for (int r = 0; r < 4; r++) {
            assertThat(nonBlocking.get(r)).isNotSameAs(first.get(r));
        }
        assertThat(network.unreceived()).isZero();
    }

    @Test
    void aScheduleInFlightCannotBeReset() {
        SimulatedNetwork network = new SimulatedNetwork(2);
        Schedule schedule = new Schedule(network.rank(0), -1000);
        schedule.recv(MemorySegment.ofArray(new long[1]), 1).start();
        assertThat(schedule.inFlight()).isTrue();
        assertThatThrownBy(() -> schedule.reset(-1001)).isInstanceOf(IllegalStateException.class);
    }
}
