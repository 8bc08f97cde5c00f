package org.jmca.tune;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * A table against the fixed rules: per (collective, communicator size, message size) the
 * medians of the interleaved rounds, the speedup (fixed / table), and whether the table is
 * faster, the same or slower beyond the noise (the larger relative half-spread of the two, at
 * least the minimum).
 */
record Verification(List<Row> rows) {

    enum Verdict { FASTER, SAME, LOSES }

    record Row(TunedCollective collective, int ranks, long size, double fixed, double table, double noise,
               Verdict verdict) {
        double speedup() {
            return fixed / table;
        }
    }

    /** A point of the verification, whichever side measured it. */
    private record Point(TunedCollective collective, int ranks, long size) {
    }

    static Verification of(List<Measurement> measurements, double minNoise) {
        Map<Point, List<Double>> fixed = new LinkedHashMap<>();
        Map<Point, List<Double>> table = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            if (!m.failed()) {
                (m.config().equals(Config.TABLE) ? table : fixed)
                        .computeIfAbsent(new Point(m.collective(), m.ranks(), m.size()), k -> new ArrayList<>())
                        .add(m.micros());
            }
        }
        List<Row> rows = new ArrayList<>();
        fixed.forEach((key, values) -> {
            List<Double> tabled = table.get(key);
            if (tabled == null) {
                return;
            }
            Decisions.Summary f = Decisions.Summary.of(values.stream().mapToDouble(Double::doubleValue).toArray());
            Decisions.Summary t = Decisions.Summary.of(tabled.stream().mapToDouble(Double::doubleValue).toArray());
            double noise = Math.max(minNoise, Math.max(f.noise(), t.noise()));
            Verdict verdict = t.median() < f.median() * (1 - noise) ? Verdict.FASTER
                    : t.median() > f.median() * (1 + noise) ? Verdict.LOSES : Verdict.SAME;
            rows.add(new Row(key.collective(), key.ranks(), key.size(), f.median(), t.median(), noise, verdict));
        });
        return new Verification(List.copyOf(rows));
    }

    List<Row> losses() {
        return rows.stream().filter(r -> r.verdict() == Verdict.LOSES).toList();
    }

    /** The rows, a summary, and each loss; {@code own} names what the table is compared with ("fixed rules"). */
    void print(PrintStream out, String own) {
        out.printf("%-22s %5s %8s %12s %12s %8s %6s  %s%n", "collective", "ranks", "size", "without (us)", "with (us)",
                "speedup", "noise", "verdict");
        for (Row r : rows) {
            out.printf("%-22s %5d %8s %12.2f %12.2f %8.2f %5.0f%%  %s%n", r.collective().configName(), r.ranks(),
                    Sizes.format(r.size()), r.fixed(), r.table(), r.speedup(), 100 * r.noise(),
                    r.verdict().name().toLowerCase(java.util.Locale.ROOT));
        }
        long faster = rows.stream().filter(r -> r.verdict() == Verdict.FASTER).count();
        double worst = rows.stream().mapToDouble(r -> r.table() / r.fixed()).max().orElse(1);
        out.printf("with it: faster at %d of %d points beyond the noise, slower at %d; at worst %.2fx the time with"
                + " the %s alone%n", faster, rows.size(), losses().size(), worst, own);
        for (Row r : losses()) {
            out.printf("jmca-tune: it LOSES: %s on %d ranks at %s: %.2f us against %.2f us (noise %.0f%%)%n",
                    r.collective().configName(), r.ranks(), Sizes.format(r.size()), r.table(), r.fixed(),
                    100 * r.noise());
        }
    }
}
