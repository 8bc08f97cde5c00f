package bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The exact lines the benchmarks print: OSU's headers and columns, which the C programs print too. */
class ReportTest {

    @Test
    void titlesNameTheLanguageAndTheBufferKind() {
        assertThat(Report.title("OSU MPI Allreduce Latency Test", false))
                .isEqualTo("# OSU MPI Allreduce Latency Test (Java, byte[])");
        assertThat(Report.title("OSU MPI Bi-Directional Bandwidth Test", true))
                .isEqualTo("# OSU MPI Bi-Directional Bandwidth Test (Java, direct buffers)");
    }

    @Test
    void pointToPointHeadersAndRows() {
        assertThat(Report.header(Report.LATENCY)).isEqualTo("# Size          Latency (us)");
        assertThat(Report.header(Report.BANDWIDTH)).isEqualTo("# Size      Bandwidth (MB/s)");
        assertThat(Report.row(8, 0.314)).isEqualTo("8                       0.31");
        assertThat(Report.row(4194304, 25659.125)).isEqualTo("4194304             25659.12");
    }

    @Test
    void multipleBandwidthHeaderAndRow() {
        assertThat(Report.pairs(2, 64)).isEqualTo("# [ pairs: 2 ] [ window size: 64 ]");
        assertThat(Report.header(Report.MB_PER_SECOND, Report.MESSAGES_PER_SECOND))
                .isEqualTo("# Size                  MB/s        Messages/s");
        assertThat(Report.row(1024, 3000.5, 2930175.78))
                .isEqualTo("1024                 3000.50        2930175.78");
    }

    @Test
    void collectiveHeaderAndRowAsOsuPrintsThem() {
        assertThat(Report.collectiveHeader(false)).isEqualTo("# Size       Avg Latency(us)");
        assertThat(Report.collectiveRow(4, new Stats(1.234, 1, 2), 1000, false))
                .isEqualTo("4                       1.23");
    }

    @Test
    void collectiveFullListingAddsMinMaxAndIterations() {
        assertThat(Report.collectiveHeader(true)).isEqualTo(
                "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations");
        assertThat(Report.collectiveRow(1048576, new Stats(812.345, 799.5, 830.004), 100, true)).isEqualTo(
                "1048576               812.35            799.50            830.00         100");
    }

    @Test
    void columnsLineUpUnderTheirHeaders() {
        String header = Report.collectiveHeader(true);
        String row = Report.collectiveRow(16, new Stats(3.5, 2.25, 4.75), 1000, true);
        assertThat(row).hasSameSizeAs(header);
        // Each figure ends where its column name ends.
        for (String column : new String[] {"Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations"}) {
            int end = header.indexOf(column) + column.length();
            assertThat(row.charAt(end - 1)).isNotEqualTo(' ');
            assertThat(end == row.length() || row.charAt(end) == ' ').isTrue();
        }
        assertThat(row.split("\\s+")).containsExactly("16", "3.50", "2.25", "4.75", "1000");
    }

    @Test
    void barrierHasNoSizeColumn() {
        assertThat(Report.sizelessHeader(false)).isEqualTo("# Avg Latency(us)");
        assertThat(Report.sizelessRow(new Stats(2.5, 2, 3), 1000, false)).isEqualTo("             2.50");
        assertThat(Report.sizelessHeader(true))
                .isEqualTo("# Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations");
        assertThat(Report.sizelessRow(new Stats(2.5, 2, 3), 1000, true))
                .isEqualTo("             2.50              2.00              3.00        1000");
    }

    @Test
    void overlapHeader() {
        String[] header = Overlap.header(false);
        assertThat(header).hasSize(4);
        assertThat(header[0]).isEqualTo("# MPI Overlap Test: post, work, wait (as SMB mpi_overhead) (Java, byte[])");
        assertThat(header[1]).startsWith("# ");
        assertThat(header[2]).startsWith("# ");
        assertThat(header[3]).isEqualTo(
                "# Size          Transfer(us)          Work(us)     Recv avail(%)     Send avail(%)");
        assertThat(Report.row(1024, 1.5, 1.52, 37.0, 0.0))
                .isEqualTo("1024                    1.50              1.52             37.00              0.00");
    }

    @Test
    void numbersUseAPointWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(Report.row(2, 1.5)).isEqualTo("2                       1.50");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void twoDecimalsRoundAsCsPrintfDoes() {
        // Exact binary ties go to even, as glibc's printf("%.2f") does; Java's %.2f would round up.
        assertThat(Report.fixed(0.125)).isEqualTo("0.12");
        assertThat(Report.fixed(0.375)).isEqualTo("0.38");
        assertThat(Report.fixed(2.675)).isEqualTo("2.67"); // 2.67499999... in binary
        assertThat(Report.fixed(1.005)).isEqualTo("1.00"); // 1.00499999...
        assertThat(Report.fixed(0.0151)).isEqualTo("0.02");
        assertThat(Report.fixed(1234567.0)).isEqualTo("1234567.00");
        assertThat(Report.fixed(-0.004)).isEqualTo("-0.00");
        assertThat(Report.fixed(-1.5)).isEqualTo("-1.50");
        assertThat(Report.fixed(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(Report.fixed(Double.NaN)).isEqualTo("nan");
        assertThat(Report.row(1, Double.POSITIVE_INFINITY)).isEqualTo("1                        inf");
    }

    @Test
    void largeValuesWidenTheirColumnRatherThanBeingCut() {
        assertThat(Report.row(1, 1e17)).isEqualTo("1         100000000000000000.00");
    }
}
