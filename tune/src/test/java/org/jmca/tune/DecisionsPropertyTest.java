package org.jmca.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.jmca.coll.tuned.rules.Rule;
import org.jmca.coll.tuned.rules.RulesFiles;
import org.jmca.coll.tuned.rules.RulesTable;
import org.jmca.coll.tuned.rules.RulesWriter;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.junit.jupiter.api.Test;

/**
 * The decision on synthetic measurements: a winner only beyond the noise, ties on the fixed
 * rules, runs of equal choices merged into ranges, and the table written in both formats and read
 * back giving the same decision for every communicator size and message size.
 */
class DecisionsPropertyTest {
    private static final List<Long> SIZES = List.of(8L, 64L, 512L, 4096L, 32768L, 262144L, 1048576L);
    private static final List<Config> CONFIGS = List.of(Config.FIXED, new Config(1, 0), new Config(2, 8192),
            new Config(3, 0));

    /** A synthetic point: which configuration is fastest there and by how much; every round jitters. */
    record Scenario(int winner, double advantage) {
    }

    @Provide
    Arbitrary<List<Scenario>> scenarios() {
        Arbitrary<Scenario> one = Combinators.combine(Arbitraries.integers().between(0, CONFIGS.size() - 1),
                Arbitraries.doubles().between(0, 0.5).ofScale(3)).as(Scenario::new);
        return one.list().ofSize(SIZES.size());
    }

    /** Rounds of every configuration: the winner at (1 - advantage) of the fixed rules' time, the others 20% slower. */
    private static List<Measurement> measurements(TunedCollective collective, Map<Integer, List<Scenario>> byRanks,
                                                  int rounds, double jitter, long seed) {
        Random random = new Random(seed);
        List<Measurement> all = new ArrayList<>();
        byRanks.forEach((ranks, scenarios) -> {
            for (int s = 0; s < SIZES.size(); s++) {
                double fixed = 5 + SIZES.get(s) / 1000.0;
                for (int c = 0; c < CONFIGS.size(); c++) {
                    double base = c == 0 ? fixed : c == scenarios.get(s).winner() ? fixed * (1 - scenarios.get(s)
                            .advantage()) : fixed * 1.2;
                    for (int round = 1; round <= rounds; round++) {
                        double micros = base * (1 + jitter * (2 * random.nextDouble() - 1));
                        all.add(new Measurement(round, collective, ranks, CONFIGS.get(c), SIZES.get(s), micros, null));
                    }
                }
            }
        });
        return all;
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Half the spread of the values without their lowest and highest quarter, relative to the median. */
    private static double halfSpread(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int quarter = v.length / 4;
        return (v[v.length - 1 - quarter] - v[quarter]) / 2 / median(values);
    }

    private static List<Double> rounds(List<Measurement> all, int ranks, Config config, long size) {
        return all.stream().filter(m -> m.ranks() == ranks && m.config().equals(config) && m.size() == size)
                .map(Measurement::micros).toList();
    }

    @Property(tries = 60)
    void aWinnerBeatsTheFixedRulesBeyondTheNoiseAndNothingElseWins(
            @ForAll("scenarios") List<Scenario> two, @ForAll("scenarios") List<Scenario> four,
            @ForAll @DoubleRange(min = 0, max = 0.1) double jitter, @ForAll @IntRange(min = 1, max = 4) int rounds,
            @ForAll long seed) {
        TunedCollective collective = TunedCollective.ALLREDUCE;
        double minNoise = 0.03;
        List<Measurement> all = measurements(collective, Map.of(2, two, 4, four), rounds, jitter, seed);

        SortedMap<Integer, List<Decisions.Point>> decided = Decisions.decide(all, collective, minNoise);

        assertThat(decided.keySet()).containsExactly(2, 4);
        decided.forEach((ranks, points) -> {
            assertThat(points).extracting(Decisions.Point::size).containsExactlyElementsOf(SIZES);
            for (Decisions.Point p : points) {
                List<Double> fixed = rounds(all, ranks, Config.FIXED, p.size());
                double fastest = CONFIGS.stream().mapToDouble(c -> median(rounds(all, ranks, c, p.size()))).min()
                        .orElseThrow();
                if (p.choice().isFixed()) {
                    // no configuration beat the fixed rules by more than both spreads and the minimum
                    for (Config c : CONFIGS.subList(1, CONFIGS.size())) {
                        List<Double> it = rounds(all, ranks, c, p.size());
                        double noise = Math.max(minNoise, Math.max(halfSpread(fixed), halfSpread(it)));
                        if (median(it) == fastest) {
                            assertThat(median(it)).as("%s at %d on %d ranks", c, p.size(), ranks)
                                    .isGreaterThanOrEqualTo(median(fixed) * (1 - noise));
                        }
                    }
                } else {
                    List<Double> it = rounds(all, ranks, p.choice(), p.size());
                    double noise = Math.max(minNoise, Math.max(halfSpread(fixed), halfSpread(it)));
                    assertThat(median(it)).as("the winner is the fastest").isEqualTo(fastest);
                    assertThat(median(it)).as("the winner beats the fixed rules beyond the noise")
                            .isLessThan(median(fixed) * (1 - noise));
                    assertThat(p.noise()).isCloseTo(noise, org.assertj.core.data.Offset.offset(1e-12));
                }
            }
        });
    }

    @Test
    void aTieStaysOnTheFixedRules() {
        List<Measurement> all = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            all.add(new Measurement(round, TunedCollective.BCAST, 2, Config.FIXED, 1024, 10.0, null));
            all.add(new Measurement(round, TunedCollective.BCAST, 2, new Config(2, 0), 1024, 9.8, null)); // 2% better
            all.add(new Measurement(round, TunedCollective.BCAST, 2, new Config(3, 0), 1024, 10.0, null));
        }
        List<Decisions.Point> points = Decisions.decide(all, TunedCollective.BCAST, 0.03).get(2);
        assertThat(points).singleElement().extracting(Decisions.Point::choice).isEqualTo(Config.FIXED);

        all.add(new Measurement(4, TunedCollective.BCAST, 2, new Config(2, 0), 1024, 9.8, null));
        all.add(new Measurement(4, TunedCollective.BCAST, 2, Config.FIXED, 1024, 10.0, null));
        all.add(new Measurement(4, TunedCollective.BCAST, 2, new Config(3, 0), 1024, 10.0, null));
        assertThat(Decisions.decide(all, TunedCollective.BCAST, 0.01).get(2)).singleElement()
                .extracting(Decisions.Point::choice).as("2% better, beyond a 1% noise").isEqualTo(new Config(2, 0));
    }

    @Test
    void aFailedConfigurationTakesNoPart() {
        List<Measurement> all = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            all.add(new Measurement(round, TunedCollective.REDUCE, 2, Config.FIXED, 64, 10.0, null));
            all.add(new Measurement(round, TunedCollective.REDUCE, 2, new Config(7, 0), 64,
                    round == 1 ? 1.0 : Double.NaN, round == 1 ? null : "the job ended"));
        }
        assertThat(Decisions.decide(all, TunedCollective.REDUCE, 0.03).get(2)).singleElement()
                .extracting(Decisions.Point::choice).isEqualTo(Config.FIXED);
    }

    @Property(tries = 40)
    void theTableMergesEqualChoicesAndReadsBackTheSameInBothFormats(
            @ForAll("scenarios") List<Scenario> two, @ForAll("scenarios") List<Scenario> four,
            @ForAll @IntRange(min = 0, max = 2) int collectiveIndex) throws IOException {
        TunedCollective collective = List.of(TunedCollective.ALLREDUCE, TunedCollective.ALLGATHER,
                TunedCollective.BCAST).get(collectiveIndex);
        List<Measurement> all = measurements(collective, Map.of(2, two, 4, four), 1, 0, 1);
        Map<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> decisions = new LinkedHashMap<>();
        decisions.put(collective, Decisions.decide(all, collective, 0.03));

        Path dir = Files.createTempDirectory("decisions");
        RulesTable table = Decisions.table(decisions, dir.resolve("t"));
        Path classic = Files.writeString(dir.resolve("t.rules"), RulesWriter.classic(table, List.of("a header")));
        Path hocon = Files.writeString(dir.resolve("t.conf"), RulesWriter.hocon(table, List.of("a header")));
        RulesTable fromClassic = RulesFiles.read(classic);
        RulesTable fromHocon = RulesFiles.read(hocon);

        decisions.get(collective).forEach((ranks, points) -> {
            long runs = 1;
            for (int i = 1; i < points.size(); i++) {
                runs += points.get(i).choice().equals(points.get(i - 1).choice()) ? 0 : 1;
            }
            assertThat(table.sections(collective).get(ranks == 2 ? 0 : 1).rules()).as("rules on %d ranks", ranks)
                    .hasSize((int) runs);
            for (Decisions.Point p : points) {
                Rule rule = table.lookup(collective, ranks, collective.messageSize(1, p.size(), ranks)).orElseThrow();
                assertThat(new Config(rule.algorithm(), rule.segmentSize())).as("the rule at %d on %d ranks", p.size(),
                        ranks).isEqualTo(p.choice());
            }
        });
        for (int ranks = 2; ranks <= 9; ranks++) {
            for (long size : new long[] {0, 7, 8, 9, 100, 4096, 4097, 40000, 1 << 20, (1L << 20) + 1, 1L << 30}) {
                Optional<Rule> expected = table.lookup(collective, ranks, size);
                assertThat(decision(fromClassic.lookup(collective, ranks, size))).as("classic, %d ranks, %d B",
                        ranks, size).isEqualTo(decision(expected));
                assertThat(decision(fromHocon.lookup(collective, ranks, size))).as("HOCON, %d ranks, %d B", ranks, size)
                        .isEqualTo(decision(expected));
            }
        }
    }

    /** What a rule decides: the algorithm and its knobs, not where it was written. */
    private static Optional<List<Long>> decision(Optional<Rule> rule) {
        return rule.map(r -> Arrays.asList((long) r.algorithm(), (long) r.faninout(), (long) r.segmentSize(),
                (long) r.maxRequests()));
    }
}
