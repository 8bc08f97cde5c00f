package bench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import bench.Stats;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The comparison's parsing, statistics and report, without running anything. */
class CompareHarnessTest {

    @TempDir
    Path dir;

    @Test
    void osuDefaultsPassOnlyTheSizesAndJitWarmupOnlyOnRequest() {
        Benchmark.Sizes eight = new Benchmark.Sizes(8, 8);
        assertThat(Benchmark.ALLREDUCE.javaArgs(eight, null, null, false)).containsExactly("-m", "8:8");
        assertThat(Benchmark.ALLREDUCE.cArgs(eight, null, null)).containsExactly("8");
        assertThat(Benchmark.LATENCY.javaArgs(eight, 100, 10, true)).containsExactly("-m", "8:8", "-i", "100", "-x",
                "10", "-J");
        assertThat(Benchmark.BW.cArgs(eight, 100, 10)).containsExactly("8", "100", "10", "64");
    }

    @Test
    void theApplicationLoopRunsOneCallOnBothSidesAndIsKeyedByBatch() {
        assertThat(Benchmark.APP_BCAST.javaArgs(new Benchmark.Sizes(1, 1 << 20), 2000, 200, true))
                .containsExactly("10", "1000", "bcast");
        assertThat(Benchmark.APP_PINGPONG.cArgs(new Benchmark.Sizes(1, 1 << 20), null, null))
                .containsExactly("10", "1000", "pingpong");
        assertThat(Benchmark.APP_PINGPONG.pointToPoint).isTrue();
        assertThat(Benchmark.APP_ALLREDUCE.rowLabel()).isEqualTo("batch");
        assertThat(OsuTable.parse("""
                # Application loop (Java): mean us per call, batches of 1000 calls timed from the first
                # Batch      allreduce
                1                 3.50
                2                 0.41
                """, "AppLoop")).containsExactly(Map.entry(1L, 3.5), Map.entry(2L, 0.41));
    }

    @Test
    void readsTheFirstValueOfEveryOsuDataLine() {
        SortedMap<Long, Double> table = OsuTable.parse("""
                # OSU MPI Latency Test (C, Open MPI)
                # Size          Latency (us)
                0                       0.21
                1                       0.25   extra columns are ignored
                1048576              1234.50
                """, "osu_latency");
        assertThat(table).containsExactly(Map.entry(0L, 0.21), Map.entry(1L, 0.25), Map.entry(1048576L, 1234.5));
    }

    @Test
    void aBarrierLineWithoutSizeCountsAsSizeZero() {
        assertThat(OsuTable.parse("# OSU MPI Barrier Latency Test\n# Avg Latency(us)\n           2.31\n", "barrier"))
                .containsExactly(Map.entry(0L, 2.31));
    }

    @Test
    void outputWithoutResultsOrWithGarbageIsAnErrorThatShowsIt() {
        assertThatThrownBy(() -> OsuTable.parse("# header only\n", "JMCA bcast"))
                .hasMessageContaining("JMCA bcast printed no results").hasMessageContaining("# header only");
        assertThatThrownBy(() -> OsuTable.parse("8 fast\n", "JMCA latency"))
                .hasMessageContaining("'8 fast'");
    }

    @Test
    void theMedianOfOddAndEvenCounts() {
        assertThat(Stats.median(5.0, 1.0, 3.0)).isEqualTo(3.0);
        assertThat(Stats.median(4.0, 1.0, 3.0, 100.0)).isEqualTo(3.5);
        assertThatThrownBy(() -> Stats.median()).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void theMedianHasAsManyValuesAboveAsBelow(@ForAll @Size(min = 1, max = 30) List<@DoubleRange(min = -1e6, max = 1e6) Double> values) {
        double median = Stats.median(values.stream().mapToDouble(Double::doubleValue).toArray());
        long below = values.stream().filter(v -> v < median).count();
        long above = values.stream().filter(v -> v > median).count();
        assertThat(below).isLessThanOrEqualTo(values.size() / 2);
        assertThat(above).isLessThanOrEqualTo(values.size() / 2);
    }

    @Test
    void sizesAreMinColonMaxOrMax() {
        assertThat(Compare.parseSizes("8:1024")).isEqualTo(new Benchmark.Sizes(8, 1024));
        assertThat(Compare.parseSizes("4096")).isEqualTo(new Benchmark.Sizes(1, 4096));
        assertThatThrownBy(() -> Compare.parseSizes("9:3")).hasMessageContaining("--sizes 9:3");
        assertThatThrownBy(() -> Compare.parseSizes("1k")).hasMessageContaining("MIN:MAX");
    }

    private static Report report() {
        Map<Compare.Series, SortedMap<Long, List<Double>>> results = new java.util.LinkedHashMap<>();
        results.put(new Compare.Series(Benchmark.LATENCY, "sm", "JMCA"), runs(Map.of(8L, List.of(0.3, 0.2, 0.25))));
        results.put(new Compare.Series(Benchmark.LATENCY, "sm", "Open MPI"), runs(Map.of(8L, List.of(0.5, 0.4, 0.6))));
        return new Report(results, List.of(Benchmark.LATENCY), List.of("sm"), true, "no libmpi_java.so", 3, 2);
    }

    private static SortedMap<Long, List<Double>> runs(Map<Long, List<Double>> values) {
        SortedMap<Long, List<Double>> sorted = new TreeMap<>();
        values.forEach((k, v) -> sorted.put(k, new ArrayList<>(v)));
        return sorted;
    }

    @Test
    void theReportShowsMediansAndTheirRatio() {
        Report report = report();
        assertThat(report.tables()).singleElement().satisfies(t -> assertThat(t.ratio(8)).isCloseTo(0.5, within(1e-12)));
        assertThat(report.mediansCsv()).containsExactly("benchmark,transport,size,jmca,openmpi,ratio",
                "latency,sm,8,0.25,0.5,0.500");
        String md = report.markdown("bench/compare --quick", "a machine", List.of(), dir);
        assertThat(md).contains("`bench/compare --quick` on a machine", "Medians of 3 interleaved rounds",
                "| size (B) | JMCA (us) | Open MPI C (us) | JMCA / Open MPI |", "| 8 | 0.25 | 0.50 | 0.50 |",
                "Open MPI's Java bindings: not measured, no libmpi_java.so");
    }

    @Test
    void openMpisJavaBindingsAreAThirdColumnWhenMeasured() {
        Map<Compare.Series, SortedMap<Long, List<Double>>> results = new java.util.LinkedHashMap<>();
        results.put(new Compare.Series(Benchmark.BARRIER, "sm", Compare.JMCA), runs(Map.of(0L, List.of(0.6))));
        results.put(new Compare.Series(Benchmark.BARRIER, "sm", Compare.OPEN_MPI), runs(Map.of(0L, List.of(0.2))));
        results.put(new Compare.Series(Benchmark.BARRIER, "sm", Compare.OPEN_MPI_JAVA), runs(Map.of(0L, List.of(0.3))));
        Report report = new Report(results, List.of(Benchmark.BARRIER), List.of("sm"), true, null, 1, 2);
        assertThat(report.mediansCsv()).containsExactly(
                "benchmark,transport,size,jmca,openmpi,ratio,openmpi_java,ratio_java", "barrier,sm,0,0.6,0.2,3.000,0.3,2.000");
        assertThat(report.markdown("bench/compare -b barrier", "a machine", List.of(), dir)).contains(
                "| size (B) | JMCA (us) | Open MPI C (us) | JMCA / Open MPI | Open MPI Java (us) | JMCA / Open MPI Java |",
                "| 0 | 0.60 | 0.20 | 3.00 | 0.30 | 2.00 |");
    }

    @Test
    void theSummaryReplacesWhatStandsBetweenTheMarkers() throws Exception {
        Path file = dir.resolve("BENCHMARKS.md");
        Files.writeString(file, "# Benchmarks\nbefore\n" + Report.BEGIN + "\nold table\n" + Report.END + "\nafter\n");
        Report.replaceBetweenMarkers(file, "new table\n");
        assertThat(Files.readString(file)).isEqualTo("# Benchmarks\nbefore\n" + Report.BEGIN + "\nnew table\n"
                + Report.END + "\nafter\n");
        Files.writeString(file, "no markers\n");
        assertThatThrownBy(() -> Report.replaceBetweenMarkers(file, "x")).hasMessageContaining("compare:begin");
    }

    @Test
    void plotsArePngFiles() throws Exception {
        List<Path> plots = new Plots(dir).draw(report());
        assertThat(plots).singleElement().satisfies(p -> {
            assertThat(p.getFileName().toString()).isEqualTo("latency-sm.png");
            byte[] bytes = Files.readAllBytes(p);
            assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
            assertThat(javax.imageio.ImageIO.read(p.toFile()).getWidth()).isEqualTo(800);
        });
    }
}
