package org.jmca.coll.mcast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The hosts of a communicator's ranks, and from them who does what in a broadcast from each
 * root. SMP-aware: one leader per host receives the multicast (the root on its own host, the
 * lowest rank on every other) and passes the message on over shared memory; SMP-unaware: every
 * rank but the root receives the multicast. Ranks are grouped by host name, so block and cyclic
 * placements give the same leaders' roles.
 */
final class Topology {

    /** What a rank does in one broadcast. */
    enum Role {
        /** Copies the message into its window, multicasts it, sends it to the co-roots and its host. */
        ROOT,
        /** Receives from the root point-to-point, then serves its members' retransmissions. */
        COROOT,
        /** Receives the multicast and acknowledges it to its collector (the root or a co-root). */
        MEMBER,
        /** Receives from its host's leader over shared memory (and from the multicast once attached). */
        LOCAL
    }

    /** The roles in the broadcasts from one root. */
    static final class Plan {
        final int root;
        final Role[] role;
        /** For a MEMBER, who collects its acknowledgements; for a co-root, the root. */
        final int[] collector;
        /** For a LOCAL rank, the rank that passes the message on to it. */
        final int[] leader;
        /** For a rank that receives the message otherwise, the ranks of its host it passes it on to. */
        final int[][] locals;
        /** Whether the root multicasts at all (someone receives the multicast). */
        final boolean multicasts;

        private Plan(int root, int size) {
            this.root = root;
            this.role = new Role[size];
            this.collector = new int[size];
            this.leader = new int[size];
            this.locals = new int[size][];
            Arrays.fill(collector, -1);
            Arrays.fill(leader, -1);
            this.multicasts = false;
        }

        private Plan(Plan built, boolean multicasts) {
            this.root = built.root;
            this.role = built.role;
            this.collector = built.collector;
            this.leader = built.leader;
            this.locals = built.locals;
            this.multicasts = multicasts;
        }

        /** By collector: the members whose acknowledgements free a message there. */
        private final Map<Integer, int[]> members = new HashMap<>();
        private int[] coroots;
        private int[] receivers;

        /** The members whose acknowledgements free a message at {@code collector}. */
        int[] members(int collector) {
            return members.computeIfAbsent(collector, c -> select(r -> role[r] == Role.MEMBER && this.collector[r] == c));
        }

        /** Every rank that receives the root's multicast (whoever collects its acknowledgements). */
        int[] receivers() {
            if (receivers == null) {
                receivers = select(r -> role[r] == Role.MEMBER);
            }
            return receivers;
        }

        /** The co-roots, whose group acknowledgements free a message at the root. */
        int[] coroots() {
            if (coroots == null) {
                coroots = select(r -> role[r] == Role.COROOT);
            }
            return coroots;
        }

        private int[] select(IntPredicate wanted) {
            return IntStream.range(0, role.length).filter(wanted).toArray();
        }
    }

    private final int[] hostOf;
    private final int[] firstOfHost;
    private final int hosts;
    private final boolean smpAware;
    private final McastSettings settings;
    private final Plan[] plans;

    Topology(String[] hostNames, McastSettings settings) {
        this.settings = settings;
        this.smpAware = settings.smpAware();
        this.hostOf = new int[hostNames.length];
        Map<String, Integer> index = new HashMap<>();
        List<Integer> first = new ArrayList<>();
        for (int r = 0; r < hostNames.length; r++) {
            Integer h = index.get(hostNames[r]);
            if (h == null) {
                h = index.size();
                index.put(hostNames[r], h);
                first.add(r);
            }
            hostOf[r] = h;
        }
        this.hosts = index.size();
        this.firstOfHost = first.stream().mapToInt(Integer::intValue).toArray();
        this.plans = new Plan[hostNames.length];
    }

    int hosts() {
        return hosts;
    }

    int size() {
        return hostOf.length;
    }

    boolean sameHost(int a, int b) {
        return hostOf[a] == hostOf[b];
    }

    /** The host of {@code rank}, numbered in the order of the hosts' first ranks. */
    int hostOf(int rank) {
        return hostOf[rank];
    }

    /** The ranks of host {@code host}, ascending; the first is the host's leader. */
    int[] ranksOf(int host) {
        return IntStream.range(0, hostOf.length).filter(r -> hostOf[r] == host).toArray();
    }

    /** Whether {@code rank} joins the multicast group from the start (every rank, or a host's designated leader). */
    boolean joinsGroup(int rank) {
        return !smpAware || firstOfHost[hostOf[rank]] == rank;
    }

    /** The ranks of {@code rank}'s host other than itself. */
    int[] othersOnHost(int rank) {
        return IntStream.range(0, hostOf.length)
                .filter(r -> r != rank && hostOf[r] == hostOf[rank]).toArray();
    }

    Plan plan(int root) {
        Plan plan = plans[root];
        if (plan == null) {
            plan = build(root);
            plans[root] = plan;
        }
        return plan;
    }

    private Plan build(int root) {
        int size = hostOf.length;
        Plan plan = new Plan(root, size);
        plan.role[root] = Role.ROOT;
        List<Integer> receivers = new ArrayList<>();
        for (int i = 1; i < size; i++) {
            int r = (root + i) % size;
            if (!smpAware) {
                receivers.add(r);
            } else if (hostOf[r] != hostOf[root] && firstOfHost[hostOf[r]] == r) {
                receivers.add(r);
            } else {
                plan.role[r] = Role.LOCAL;
                plan.leader[r] = hostOf[r] == hostOf[root] ? root : firstOfHost[hostOf[r]];
            }
        }
        int n = receivers.size();
        int coroots = n == 0 ? 0 : Math.min(settings.corootsFor(n), n - 1);
        int[] head = new int[coroots + 1];
        Arrays.fill(head, -1);
        head[0] = root;
        for (int i = 0; i < n; i++) {
            int chunk = (int) ((long) i * (coroots + 1) / n);
            int r = receivers.get(i);
            if (head[chunk] < 0) {
                head[chunk] = r;
                plan.role[r] = Role.COROOT;
                plan.collector[r] = root;
            } else {
                plan.role[r] = Role.MEMBER;
                plan.collector[r] = head[chunk];
            }
        }
        for (int r = 0; r < size; r++) {
            plan.locals[r] = smpAware && plan.role[r] != Role.LOCAL ? othersOnHost(r) : new int[0];
        }
        return new Plan(plan, n > 0);
    }
}
