package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Broadcasts over real UDP multicast on this host's interface, ranks as threads, against what
 * the root sent: random rank counts, hosts (block or cyclic placement), roots, sizes (one
 * datagram to many), communicators (the world and a split of it), every reliability scheme, with
 * 0, 1 and 5 % of the datagrams dropped and some duplicated and reordered. Every buffer must be
 * the root's, call after call: nothing lost, duplicated or delivered out of order; with credit-based
 * flow control, nothing multicast that a receiver had to drop for want of room.
 */
@AddLifecycleHook(MulticastHere.class)
class McastBcastPropertyTest {

    record Case(int size, int hosts, boolean cyclic, boolean smpAware, Reliability reliability, int coroots, int window,
                int ackEvery, int credits, int fragment, double drop, double duplicate, double reorder, long seed,
                List<McastJob.Call> calls) {

        String[] hostNames() {
            String[] names = new String[size];
            int perHost = (size + hosts - 1) / hosts;
            for (int r = 0; r < size; r++) {
                names[r] = "host" + (cyclic ? r % hosts : r / perHost);
            }
            return names;
        }

        McastSettings settings() {
            return new McastSettings(reliability, coroots, window, ackEvery, credits, 64 * 1024, fragment, 1_000_000L,
                    200_000L, smpAware, 800_000L, 4, 2048, new FaultInjection.Rates(drop, duplicate, reorder, seed));
        }
    }

    @Property(tries = 100)
    void everyRankGetsEveryMessageOnceInOrder(@ForAll("cases") Case c) throws InterruptedException {
        McastJob.Outcome outcome = McastJob.run(c.size(), c.hostNames(), c.settings(), c.calls(), 60);
        assertThat(outcome.failure()).as("%s; counters %s", c, outcome.total()).isNull();
        if (c.credits() > 0 && !c.smpAware()) {
            // a root multicasts only what every receiver has room for (attached ranks, which take
            // the multicast beside their leader's copy, are not counted on and may drop some)
            assertThat(outcome.total().overruns).as("%s; counters %s", c, outcome.total()).isZero();
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> sizes = Arbitraries.integers().between(2, 6);
        return sizes.flatMap(size -> {
            Arbitrary<List<McastJob.Call>> calls = Combinators.combine(Arbitraries.of(true, false, false),
                    Arbitraries.integers().between(0, size - 1),
                    Arbitraries.oneOf(Arbitraries.integers().between(1, 64), Arbitraries.integers().between(1, 64 * 1024)))
                    .as(McastJob.Call::new)
                    .list().ofMinSize(5).ofMaxSize(30);
            Arbitrary<Case> shapes = Combinators.combine(
                    Arbitraries.integers().between(1, size), Arbitraries.of(true, false), Arbitraries.of(true, false),
                    Arbitraries.of(Reliability.class), Arbitraries.integers().between(1, 3),
                    Arbitraries.integers().between(2, 32), Arbitraries.of(512, 1400, 8192),
                    Arbitraries.of(0.0, 0.01, 0.05))
                    .as((hosts, cyclic, smp, reliability, coroots, window, fragment, drop) -> new Case(size, hosts,
                            cyclic, smp && hosts > 1, reliability, coroots, window, Math.max(1, window / 3), 0,
                            fragment, drop, 0, 0, 0, List.of()));
            return Combinators.combine(shapes, Arbitraries.of(0, 0, 1, 3, 16), Arbitraries.of(0.0, 0.05),
                            Arbitraries.of(0.0, 0.05), Arbitraries.longs(), calls)
                    .as((c, credits, duplicate, reorder, seed, list) -> new Case(c.size(), c.hosts(), c.cyclic(),
                            c.smpAware(), c.reliability(), c.coroots(), c.window(), c.ackEvery(), credits, c.fragment(),
                            c.drop(), duplicate, reorder, seed, list));
        });
    }
}
