package bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.PerformanceVariable;

/**
 * The lines the benchmarks print, in the OSU micro-benchmarks' layout: a title line, a column
 * header line starting with {@code #}, then one row per message size, the size left-aligned in
 * 10 characters and each figure right-aligned in 18 with two decimals (OSU's FIELD_WIDTH and
 * FLOAT_PRECISION); the collectives' full listing ends with the iterations in 12. The C programs
 * of {@code bench/c} print the same columns, so one parser reads both.
 */
final class Report {
    static final int SIZE_WIDTH = 10;
    static final int FIELD_WIDTH = 18;
    static final int ITERATIONS_WIDTH = 12;
    /** OSU prints a test without sizes (barrier) with its average right-aligned in 17. */
    static final int SIZELESS_WIDTH = 17;

    static final String SIZE = "# Size";
    static final String LATENCY = "Latency (us)";
    static final String BANDWIDTH = "Bandwidth (MB/s)";
    static final String MB_PER_SECOND = "MB/s";
    static final String MESSAGES_PER_SECOND = "Messages/s";
    static final String AVG_LATENCY = "Avg Latency(us)";
    static final String MIN_LATENCY = "Min Latency(us)";
    static final String MAX_LATENCY = "Max Latency(us)";
    static final String ITERATIONS = "Iterations";

    private Report() {
    }

    /**
     * One comment line per rank that has non-zero counters (asynchronous progress, RGET), in
     * rank order. Collective over {@code comm}.
     */
    static void printCounters(Intracomm comm) throws MPIException {
        for (int r = 0; r < comm.getSize(); r++) {
            comm.barrier();
            if (r == comm.getRank()) {
                StringBuilder line = new StringBuilder("# rank " + r + ":");
                for (PerformanceVariable v : MPI.performanceVariables()) {
                    if (v.value() != 0) {
                        line.append(' ').append(v.name()).append('=').append(v.value());
                    }
                }
                if (line.indexOf("=") > 0) {
                    System.out.println(line);
                    System.out.flush();
                }
            }
        }
    }

    /**
     * The first line: {@code # NAME (Java, byte[])} or {@code # NAME (Java, direct buffers)}. The
     * same classes run on JMCA and on Open MPI's Java bindings, so the title names the language.
     */
    static String title(String name, boolean direct) {
        return "# " + name + " (Java, " + (direct ? "direct buffers" : "byte[]") + ")";
    }

    /** A header line: {@code # Size} then each column name right-aligned in 18. */
    static String header(String... columns) {
        StringBuilder line = new StringBuilder(left(SIZE, SIZE_WIDTH));
        for (String column : columns) {
            line.append(right(column, FIELD_WIDTH));
        }
        return line.toString();
    }

    /** A row: the size left-aligned in 10, then each value with two decimals right-aligned in 18. */
    static String row(long size, double... values) {
        StringBuilder line = new StringBuilder(left(Long.toString(size), SIZE_WIDTH));
        for (double value : values) {
            line.append(right(fixed(value), FIELD_WIDTH));
        }
        return line.toString();
    }

    /** osu_mbw_mr's second line. */
    static String pairs(int pairs, int window) {
        return "# [ pairs: " + pairs + " ] [ window size: " + window + " ]";
    }

    /** A collective test's header: average latency, and with {@code full} minimum, maximum, iterations. */
    static String collectiveHeader(boolean full) {
        return header(AVG_LATENCY) + (full ? fullHeader() : "");
    }

    /** A collective test's row for one size. */
    static String collectiveRow(long size, Stats stats, int iterations, boolean full) {
        return row(size, stats.avg()) + (full ? fullRow(stats, iterations) : "");
    }

    /** The header of a test without sizes (barrier): {@code # Avg Latency(us)}, as OSU prints it. */
    static String sizelessHeader(boolean full) {
        return "# " + AVG_LATENCY + (full ? fullHeader() : "");
    }

    /** The row of a test without sizes: the average right-aligned in 17. */
    static String sizelessRow(Stats stats, int iterations, boolean full) {
        return right(fixed(stats.avg()), SIZELESS_WIDTH) + (full ? fullRow(stats, iterations) : "");
    }

    private static String fullHeader() {
        return right(MIN_LATENCY, FIELD_WIDTH) + right(MAX_LATENCY, FIELD_WIDTH) + right(ITERATIONS, ITERATIONS_WIDTH);
    }

    private static String fullRow(Stats stats, int iterations) {
        return right(fixed(stats.min()), FIELD_WIDTH) + right(fixed(stats.max()), FIELD_WIDTH)
                + right(Integer.toString(iterations), ITERATIONS_WIDTH);
    }

    /**
     * The value with two decimals as C's {@code printf("%.2f")} prints it: the exact binary value
     * rounded half to even (Java's {@code %.2f} rounds half up: 0.125 would print 0.13, C prints
     * 0.12), and {@code nan}, {@code inf}, {@code -inf}.
     */
    static String fixed(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String text = new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        return value < 0 || (value == 0 && 1 / value < 0) ? (text.startsWith("-") ? text : "-" + text) : text;
    }

    private static String left(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    private static String right(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }
}
