package bench;

import java.util.Arrays;

/**
 * What a collective test reports for one message size, computed as OSU does: each rank averages
 * its own timed iterations, then rank 0 takes the average, the minimum and the maximum of those
 * per-rank averages (OSU's three MPI_Reduce calls, SUM / numprocs, MIN and MAX).
 *
 * @param avg the mean over ranks of each rank's average latency, in microseconds
 * @param min the smallest rank's average latency, in microseconds
 * @param max the largest rank's average latency, in microseconds
 */
public record Stats(double avg, double min, double max) {

    /** The statistics over the ranks' average latencies (one per rank, any order). */
    static Stats of(double... perRank) {
        if (perRank.length == 0) {
            throw new IllegalArgumentException("no rank's latency");
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double latency : perRank) {
            sum += latency;
            min = Math.min(min, latency);
            max = Math.max(max, latency);
        }
        return new Stats(sum / perRank.length, min, max);
    }

    /**
     * The median of {@code values} (the mean of the middle two for an even count); sorts a copy.
     * Also bench/compare's statistic over rounds: robust to the odd slow run of a noisy machine.
     */
    public static double median(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no value");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** One rank's average latency in microseconds: {@code seconds} spent in {@code iterations} calls. */
    static double microsPerIteration(double seconds, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations " + iterations + " < 1");
        }
        return seconds * 1e6 / iterations;
    }
}
