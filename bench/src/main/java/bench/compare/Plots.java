package bench.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** One PNG per benchmark and transport: the medians against message size, log-log, JMCA beside Open MPI. */
final class Plots {
    private final Path out;

    Plots(Path out) {
        this.out = out;
    }

    List<Path> draw(Report report) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Report.Table table : report.tables()) {
            if (table.jmca().isEmpty()) {
                continue;
            }
            XYChart chart = new XYChartBuilder().width(800).height(500)
                    .title(table.benchmark().title + " over " + table.transport())
                    .xAxisTitle(table.benchmark().isAppLoop() ? "batch" : "message size (bytes)").yAxisTitle(table.benchmark().unit).build();
            chart.getStyler().setXAxisLogarithmic(true);
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
            add(chart, "JMCA", table.jmca());
            if (!table.openMpi().isEmpty()) {
                add(chart, "Open MPI (C)", table.openMpi());
            }
            if (!table.openMpiJava().isEmpty()) {
                add(chart, "Open MPI (Java bindings)", table.openMpiJava());
            }
            Path file = out.resolve(table.benchmark().id() + "-" + table.transport() + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }

    /** Adds a series; sizes and values of zero cannot stand on log axes and are left out. */
    private static void add(XYChart chart, String name, SortedMap<Long, Double> medians) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        medians.forEach((size, value) -> {
            if (size > 0 && value > 0) {
                x.add(size.doubleValue());
                y.add(value);
            }
        });
        if (!x.isEmpty()) {
            chart.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
        }
    }
}
