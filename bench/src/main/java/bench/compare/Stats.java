package bench.compare;

import java.util.Arrays;
import java.util.Collection;

/** The statistics of repeated runs: the median, robust to the odd slow run of a noisy machine. */
final class Stats {
    private Stats() {
    }

    static double median(Collection<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Relative spread: (max - min) / median, to show how noisy a measurement was. */
    static double spread(Collection<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        return (Arrays.stream(v).max().orElseThrow() - Arrays.stream(v).min().orElseThrow()) / median(values);
    }
}
