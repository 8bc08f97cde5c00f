package org.jmca.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jmca.coll.tuned.rules.Collective;
import org.jmca.coll.tuned.rules.Rule;
import org.jmca.coll.tuned.rules.RulesTable;
import org.jmca.coll.tuned.rules.Section;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * From measurements to a rules table. At each (collective, communicator size, message size) the
 * configuration with the lowest median over the rounds wins, but only where it beats the fixed
 * rules' own choice by more than the noise measured there; elsewhere the table says 0, which
 * leaves the call to the fixed rules. Equal neighbouring choices merge into one message-size
 * range.
 */
final class Decisions {
    /**
     * The decision at one measured size.
     *
     * @param size         the bytes each rank contributes
     * @param choice       the winner, or {@link Config#FIXED} where none beats the fixed rules beyond the noise
     * @param fixedMicros  the fixed rules' median
     * @param chosenMicros the choice's median
     * @param noise        the relative noise the winner had to beat: the larger half-spread of the two
     */
    record Point(long size, Config choice, double fixedMicros, double chosenMicros, double noise) {
    }

    private Decisions() {
    }

    /**
     * The median of a point's values and their noise: the relative half-spread of the values once
     * the lowest and highest quarter are set aside ((v[n-1-n/4] - v[n/4]) / 2 / median), which for
     * up to 3 values is the whole range. One job in a few runs several times slower on this 2-core
     * machine, and the whole range would let that one outlier silence every decision.
     */
    record Summary(double median, double noise) {
        static Summary of(double[] values) {
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            double spread = sorted[n - 1 - n / 4] - sorted[n / 4];
            return new Summary(median, median > 0 ? spread / 2 / median : 0);
        }
    }

    /**
     * The decisions for one collective, by communicator size, then by message size. Configurations
     * with a failed round, or fewer rounds than the most measured, take no part.
     *
     * @param minNoise the least relative margin a winner must have, whatever the measured spread
     */
    static SortedMap<Integer, List<Point>> decide(List<Measurement> measurements, TunedCollective collective,
                                                 double minNoise) {
        Map<Integer, Map<Long, Map<Config, List<Double>>>> grouped = new TreeMap<>();
        Map<Measurement.Point, Boolean> failed = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            if (m.collective() != collective) {
                continue;
            }
            if (m.failed()) {
                failed.put(m.point(), true);
                continue;
            }
            grouped.computeIfAbsent(m.ranks(), k -> new TreeMap<>()).computeIfAbsent(m.size(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(m.config(), k -> new ArrayList<>()).add(m.micros());
        }
        SortedMap<Integer, List<Point>> decisions = new TreeMap<>();
        grouped.forEach((ranks, bySize) -> {
            List<Point> points = new ArrayList<>();
            bySize.forEach((size, byConfig) -> {
                List<Double> fixedRounds = byConfig.get(Config.FIXED);
                if (fixedRounds == null) {
                    return; // nothing to compare with: the fixed rules stay
                }
                int rounds = byConfig.values().stream().mapToInt(List::size).max().orElse(0);
                Summary fixed = Summary.of(values(fixedRounds));
                Config best = Config.FIXED;
                Summary bestSummary = fixed;
                for (Map.Entry<Config, List<Double>> entry : byConfig.entrySet()) {
                    Config config = entry.getKey();
                    if (config.isFixed() || entry.getValue().size() < rounds
                            || failed.containsKey(new Measurement.Point(collective, ranks, config, size))) {
                        continue;
                    }
                    Summary summary = Summary.of(values(entry.getValue()));
                    if (summary.median() < bestSummary.median()) {
                        best = config;
                        bestSummary = summary;
                    }
                }
                double noise = Math.max(minNoise, Math.max(fixed.noise(), bestSummary.noise()));
                boolean wins = !best.isFixed() && bestSummary.median() < fixed.median() * (1 - noise);
                points.add(new Point(size, wins ? best : Config.FIXED, fixed.median(),
                        wins ? bestSummary.median() : fixed.median(), noise));
            });
            decisions.put(ranks, List.copyOf(points));
        });
        return decisions;
    }

    private static double[] values(List<Double> rounds) {
        return rounds.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The rules table of the decisions: per collective a section per measured communicator size
     * (the smallest from 0, each up to the next, the last unbounded), and in each the merged
     * ranges of message sizes, in the table's own measure of a message
     * ({@link TunedCollective#messageSize}: the whole vector for allgather and alltoall).
     */
    static RulesTable table(Map<TunedCollective, SortedMap<Integer, List<Point>>> decisions, Path source) {
        Map<Collective, List<Section>> sections = new LinkedHashMap<>();
        decisions.forEach((collective, byRanks) -> {
            List<Integer> sizes = new ArrayList<>(byRanks.keySet());
            List<Section> list = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                int ranks = sizes.get(i);
                int max = i + 1 < sizes.size() ? sizes.get(i + 1) - 1 : Section.UNBOUNDED;
                list.add(new Section(i == 0 ? 0 : ranks, max, rules(collective, ranks, byRanks.get(ranks)),
                        "measured on " + ranks + " ranks"));
            }
            if (!list.isEmpty()) {
                sections.put(collective, list);
            }
        });
        return new RulesTable(source, sections);
    }

    /** One rule per run of equal choices; a run ends at its last measured size. */
    private static List<Rule> rules(TunedCollective collective, int ranks, List<Point> points) {
        List<Rule> rules = new ArrayList<>();
        long start = 0;
        for (int i = 0; i < points.size(); i++) {
            Config choice = points.get(i).choice();
            boolean last = i + 1 == points.size();
            if (last || !points.get(i + 1).choice().equals(choice)) {
                long end = last ? Rule.UNBOUNDED : collective.messageSize(1, points.get(i).size(), ranks);
                rules.add(new Rule(start, end, choice.algorithm(), 0, (int) choice.segmentSize(), 0,
                        "measured on " + ranks + " ranks"));
                start = end + 1;
            }
        }
        if (rules.isEmpty()) {
            rules.add(new Rule(0, Rule.UNBOUNDED, 0, 0, 0, 0, "no measurement on " + ranks + " ranks"));
        }
        return rules;
    }
}
