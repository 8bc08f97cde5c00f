package bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import bench.Stats;

/** The medians of a comparison, as Markdown tables and CSV, per benchmark and transport. */
final class Report {
    static final String BEGIN = "<!-- compare:begin -->";
    static final String END = "<!-- compare:end -->";

    /** One benchmark over one transport: size → median per implementation. */
    record Table(Benchmark benchmark, String transport, SortedMap<Long, Double> jmca, SortedMap<Long, Double> openMpi,
                 SortedMap<Long, Double> openMpiJava) {
        /** JMCA / Open MPI C at {@code size}, or NaN without Open MPI. */
        double ratio(long size) {
            return ratio(size, openMpi);
        }

        /** JMCA / Open MPI's Java bindings at {@code size}, or NaN without them. */
        double javaRatio(long size) {
            return ratio(size, openMpiJava);
        }

        private double ratio(long size, SortedMap<Long, Double> other) {
            Double j = jmca.get(size);
            Double o = other.get(size);
            return j == null || o == null || o == 0 ? Double.NaN : j / o;
        }
    }

    private final List<Table> tables = new ArrayList<>();
    private final boolean withOpenMpi;
    /** Why Open MPI's Java bindings were not measured, or null when they were (or Open MPI is absent). */
    private final String javaWhyNot;
    private final boolean withJava;
    private final int rounds;
    private final int np;

    Report(Map<Compare.Series, SortedMap<Long, List<Double>>> results, List<Benchmark> benchmarks,
           List<String> transports, boolean withOpenMpi, String javaWhyNot, int rounds, int np) {
        this.withOpenMpi = withOpenMpi;
        this.javaWhyNot = javaWhyNot;
        this.withJava = withOpenMpi && javaWhyNot == null;
        this.rounds = rounds;
        this.np = np;
        for (Benchmark benchmark : benchmarks) {
            for (String transport : transports) {
                tables.add(new Table(benchmark, transport,
                        medians(results.get(new Compare.Series(benchmark, transport, Compare.JMCA))),
                        medians(results.get(new Compare.Series(benchmark, transport, Compare.OPEN_MPI))),
                        medians(results.get(new Compare.Series(benchmark, transport, Compare.OPEN_MPI_JAVA)))));
            }
        }
    }

    static SortedMap<Long, Double> medians(SortedMap<Long, List<Double>> runs) {
        SortedMap<Long, Double> medians = new TreeMap<>();
        if (runs != null) {
            runs.forEach((size, values) -> medians.put(size, Stats.median(values.stream().mapToDouble(Double::doubleValue)
                    .toArray())));
        }
        return medians;
    }

    List<Table> tables() {
        return tables;
    }

    List<String> mediansCsv() {
        List<String> lines = new ArrayList<>(List.of("benchmark,transport,size,jmca,openmpi,ratio"
                + (withJava ? ",openmpi_java,ratio_java" : "")));
        for (Table t : tables) {
            t.jmca().forEach((size, j) -> {
                Double o = t.openMpi().get(size);
                Double oj = t.openMpiJava().get(size);
                lines.add(t.benchmark().id() + "," + t.transport() + "," + size + "," + j + ","
                        + (o == null ? "" : o) + "," + (o == null ? "" : String.format("%.3f", t.ratio(size)))
                        + (withJava ? "," + (oj == null ? "" : oj) + ","
                                + (oj == null ? "" : String.format("%.3f", t.javaRatio(size))) : ""));
            });
        }
        return lines;
    }

    /** The summary: how it was measured, then one table per benchmark and transport, then the plots. */
    String markdown(String command, String machine, List<Path> plots, Path out) {
        StringBuilder md = new StringBuilder();
        md.append("Measured with `").append(command).append("` on ").append(machine).append(". Medians of ")
                .append(rounds).append(" interleaved rounds; point-to-point benchmarks on 2 ranks, collectives on ")
                .append(np).append(", ranks bound to cores when there are as many cores (else Open MPI runs with")
                .append(" --oversubscribe and neither binds). Latency in microseconds (ratio below 1: JMCA faster),")
                .append(" bandwidth in MB/s (ratio above 1: JMCA faster).")
                .append(withJava ? " Open MPI Java: the same Java classes on Open MPI's Java bindings (JNI)." : "")
                .append(withOpenMpi && javaWhyNot != null ? " Open MPI's Java bindings: not measured, " + javaWhyNot : "")
                .append('\n');
        for (Table t : tables) {
            String unit = t.benchmark().unit;
            md.append("\n**").append(t.benchmark().title).append(", ").append(t.transport()).append("**\n\n");
            md.append("| ").append(t.benchmark().rowLabel()).append(" | JMCA (").append(unit).append(") |")
                    .append(withOpenMpi ? " Open MPI C (" + unit + ") | JMCA / Open MPI |" : "")
                    .append(withJava ? " Open MPI Java (" + unit + ") | JMCA / Open MPI Java |" : "").append('\n');
            md.append("|---:|---:|").append(withOpenMpi ? "---:|---:|" : "").append(withJava ? "---:|---:|" : "")
                    .append('\n');
            t.jmca().forEach((size, j) -> {
                md.append("| ").append(size).append(" | ").append(format(j)).append(" |");
                if (withOpenMpi) {
                    cells(md, t.openMpi().get(size), t.ratio(size));
                }
                if (withJava) {
                    cells(md, t.openMpiJava().get(size), t.javaRatio(size));
                }
                md.append('\n');
            });
        }
        if (!plots.isEmpty()) {
            md.append('\n');
            for (Path plot : plots) {
                md.append("![").append(plot.getFileName()).append("](").append(out.resolve(plot.getFileName()))
                        .append(")\n");
            }
        }
        return md.toString();
    }

    /** A median and JMCA's ratio to it, or dashes where it was not measured. */
    private static void cells(StringBuilder md, Double median, double ratio) {
        md.append(' ').append(median == null ? "–" : format(median)).append(" | ")
                .append(Double.isNaN(ratio) ? "–" : String.format("%.2f", ratio)).append(" |");
    }

    private static String format(double value) {
        return value >= 100 ? String.format("%.0f", value) : String.format("%.2f", value);
    }

    /** Puts {@code text} between the begin and end markers of {@code file}, which must hold both. */
    static void replaceBetweenMarkers(Path file, String text) throws IOException {
        String content = Files.readString(file);
        int begin = content.indexOf(BEGIN);
        int end = content.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(file + " has no '" + BEGIN + "' line followed by an '" + END
                    + "' line to put the results between");
        }
        Files.writeString(file, content.substring(0, begin + BEGIN.length()) + "\n" + text + content.substring(end));
    }
}
