package bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The statistics the collective tests and the bandwidth tests compute from the ranks' times. */
class StatsTest {

    @Test
    void averageMinimumAndMaximumOverTheRanks() {
        assertThat(Stats.of(4.0, 1.0, 2.5, 0.5)).isEqualTo(new Stats(2.0, 0.5, 4.0));
        assertThat(Stats.of(3.0)).isEqualTo(new Stats(3.0, 3.0, 3.0));
    }

    @Test
    void noRankNoStatistics() {
        assertThatThrownBy(Stats::of).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMedianIgnoresAFewPreemptedIterations() {
        assertThat(Stats.median(3.0, 1.0, 2.0)).isEqualTo(2.0);
        assertThat(Stats.median(4.0, 1.0, 3.0, 2.0)).isEqualTo(2.5);
        assertThat(Stats.median(1.0, 1.1, 0.9, 5000.0, 1.0)).isEqualTo(1.0);
        double[] values = {3.0, 1.0, 2.0};
        Stats.median(values);
        assertThat(values).containsExactly(3.0, 1.0, 2.0);
        assertThatThrownBy(Stats::median).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRanksLatencyIsItsTimePerIterationInMicroseconds() {
        assertThat(Stats.microsPerIteration(0.002, 1000)).isCloseTo(2.0, within(1e-12));
        assertThat(Stats.microsPerIteration(0, 5)).isZero();
        assertThatThrownBy(() -> Stats.microsPerIteration(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void theAverageLiesBetweenMinimumAndMaximum(
            @ForAll @Size(min = 1, max = 64) List<@DoubleRange(min = 0, max = 1e9) Double> times) {
        double[] latencies = times.stream().mapToDouble(Double::doubleValue).toArray();
        Stats stats = Stats.of(latencies);
        assertThat(stats.min()).isLessThanOrEqualTo(stats.max());
        assertThat(stats.avg()).isBetween(stats.min() - Math.ulp(stats.min()) * 64,
                stats.max() + Math.ulp(stats.max()) * 64);
        assertThat(latencies).contains(stats.min(), stats.max());
    }

    @Property
    void theOrderOfTheRanksDoesNotMatter(
            @ForAll @Size(min = 1, max = 16) List<@DoubleRange(min = 0, max = 1e9) Double> times) {
        double[] latencies = times.stream().mapToDouble(Double::doubleValue).toArray();
        double[] reversed = new double[latencies.length];
        for (int i = 0; i < latencies.length; i++) {
            reversed[i] = latencies[latencies.length - 1 - i];
        }
        Stats forward = Stats.of(latencies);
        Stats backward = Stats.of(reversed);
        assertThat(backward.min()).isEqualTo(forward.min());
        assertThat(backward.max()).isEqualTo(forward.max());
        assertThat(backward.avg()).isCloseTo(forward.avg(), within(1e-9 * Math.max(1, Math.abs(forward.avg()))));
    }

    @Test
    void bidirectionalBandwidthCountsBothDirections() {
        // 100 iterations of 64 messages of 1 MB each way in 1 s: 12800 MB/s.
        assertThat(OsuBibw.bandwidth(1_000_000, 100, 64, 1.0)).isCloseTo(12800, within(1e-6));
    }

    @Test
    void multipleBandwidthSumsThePairsOverTheSendersMeanTime() {
        // 2 pairs, 10 windows of 4 messages of 1 MB; the senders took 1 s and 3 s: mean 2 s, 80 MB / 2 s.
        double bandwidth = OsuMbwMr.bandwidth(1_000_000, 2, 10, 4, 4.0);
        assertThat(bandwidth).isCloseTo(40, within(1e-9));
        assertThat(OsuMbwMr.messageRate(1_000_000, bandwidth)).isCloseTo(40, within(1e-9));
        assertThat(OsuMbwMr.messageRate(8, 1.0)).isCloseTo(125_000, within(1e-9));
    }

    @Test
    void availabilityIsTheShareOfTheTransferFreeForWork() {
        // Full overlap: post + work + wait took only the work.
        assertThat(Overlap.availability(10, 10, 10)).isEqualTo(1.0);
        // No overlap: the whole transfer came on top of the work.
        assertThat(Overlap.availability(20, 10, 10)).isEqualTo(0.0);
        // A quarter of the transfer came on top.
        assertThat(Overlap.availability(12.5, 10, 10)).isCloseTo(0.75, within(1e-12));
        // Noise is clamped to [0, 1].
        assertThat(Overlap.availability(9, 10, 10)).isEqualTo(1.0);
        assertThat(Overlap.availability(35, 10, 10)).isEqualTo(0.0);
        assertThat(Overlap.availability(1, 1, 0)).isEqualTo(0.0);
    }

    @Property
    void availabilityStaysAFraction(@ForAll @DoubleRange(min = 0, max = 1e3) double overlapped,
            @ForAll @DoubleRange(min = 0, max = 1e3) double work, @ForAll @DoubleRange(min = 0, max = 1e3) double transfer) {
        assertThat(Overlap.availability(overlapped, work, transfer)).isBetween(0.0, 1.0);
    }
}
