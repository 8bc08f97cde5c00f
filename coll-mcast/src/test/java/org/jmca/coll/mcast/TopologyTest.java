package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;

import org.jmca.coll.mcast.Topology.Plan;
import org.jmca.coll.mcast.Topology.Role;
import org.junit.jupiter.api.Test;

class TopologyTest {

    private static McastSettings settings(Reliability reliability, int coroots, boolean smpAware) {
        return new McastSettings(reliability, coroots, 32, 10, 0, 65536, 8192, 1_000_000L, 200_000L, smpAware,
                800_000L, 64, 2048, FaultInjection.Rates.NONE);
    }

    @Test
    void blockPlacementHasOneLeaderPerHostAndTheRootLeadsItsOwn() {
        Topology topology = new Topology(new String[] {"a", "a", "b", "b", "c", "c"},
                settings(Reliability.ACK, 0, true));
        Plan plan = topology.plan(1);
        assertThat(plan.role).containsExactly(Role.LOCAL, Role.ROOT, Role.MEMBER, Role.LOCAL, Role.MEMBER, Role.LOCAL);
        assertThat(plan.leader[0]).isEqualTo(1);
        assertThat(plan.leader[3]).isEqualTo(2);
        assertThat(plan.leader[5]).isEqualTo(4);
        assertThat(plan.locals[1]).containsExactly(0);
        assertThat(plan.locals[2]).containsExactly(3);
        assertThat(plan.members(1)).containsExactly(2, 4);
        assertThat(topology.joinsGroup(0)).isTrue();
        assertThat(topology.joinsGroup(1)).isFalse();
    }

    @Test
    void cyclicPlacementGivesTheSameLeadersByHostNotByRankArithmetic() {
        Topology topology = new Topology(new String[] {"a", "b", "c", "a", "b", "c"},
                settings(Reliability.ACK, 0, true));
        Plan plan = topology.plan(0);
        assertThat(plan.role).containsExactly(Role.ROOT, Role.MEMBER, Role.MEMBER, Role.LOCAL, Role.LOCAL, Role.LOCAL);
        assertThat(plan.leader[3]).isZero();
        assertThat(plan.leader[4]).isEqualTo(1);
        assertThat(plan.leader[5]).isEqualTo(2);
        assertThat(plan.locals[2]).containsExactly(5);
    }

    @Test
    void coRootsHeadChunksOfTheReceiversAndCollectTheirAcknowledgements() {
        Topology topology = new Topology(new String[] {"a", "b", "c", "d", "e", "f", "g"},
                settings(Reliability.COROOT, 2, true));
        Plan plan = topology.plan(0);
        assertThat(plan.coroots()).containsExactly(3, 5);
        assertThat(plan.members(0)).containsExactly(1, 2);
        assertThat(plan.members(3)).containsExactly(4);
        assertThat(plan.members(5)).containsExactly(6);
        assertThat(plan.collector[4]).isEqualTo(3);
        assertThat(plan.collector[3]).isZero();
    }

    @Test
    void withoutSmpAwarenessEveryOtherRankTakesTheMulticast() {
        Topology topology = new Topology(new String[] {"a", "a", "a"}, settings(Reliability.ACK, 0, false));
        Plan plan = topology.plan(2);
        assertThat(plan.role).containsExactly(Role.MEMBER, Role.MEMBER, Role.ROOT);
        assertThat(plan.locals[0]).isEmpty();
        assertThat(plan.multicasts).isTrue();
        assertThat(topology.joinsGroup(1)).isTrue();
    }
}
