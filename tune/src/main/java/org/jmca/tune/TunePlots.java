package org.jmca.tune;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per collective and communicator size: every configuration's median latency against
 * message size (log-log, thin lines), the component's own choice (black, dashed: the fixed rules,
 * coll/gm's shipped map) and the table's choice (red, thick, a marker on each measured size).
 */
final class TunePlots {
    private TunePlots() {
    }

    static List<Path> draw(Path directory, Component component, List<Measurement> measurements,
                           Map<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> decisions) throws IOException {
        Files.createDirectories(directory);
        List<Path> files = new ArrayList<>();
        for (Map.Entry<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> entry : decisions.entrySet()) {
            TunedCollective collective = entry.getKey();
            for (Map.Entry<Integer, List<Decisions.Point>> byRanks : entry.getValue().entrySet()) {
                int ranks = byRanks.getKey();
                XYChart chart = new XYChartBuilder().width(900).height(560)
                        .title(collective.configName() + " on " + ranks + " ranks: every algorithm, and the table's choice")
                        .xAxisTitle("message size (bytes per rank)").yAxisTitle("latency (us), median of the rounds")
                        .build();
                chart.getStyler().setXAxisLogarithmic(true);
                chart.getStyler().setYAxisLogarithmic(true);
                chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
                medians(measurements, collective, ranks).forEach((config, medians) -> {
                    XYSeries series = add(chart, component.label(collective, config), medians);
                    if (series != null && config.isFixed()) {
                        series.setLineColor(Color.BLACK);
                        series.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                                new float[] {6f, 4f}, 0f));
                    } else if (series != null) {
                        series.setLineStyle(new BasicStroke(1f));
                        series.setMarker(SeriesMarkers.NONE);
                    }
                });
                SortedMap<Long, Double> chosen = new TreeMap<>();
                byRanks.getValue().forEach(p -> chosen.put(p.size(), p.chosenMicros()));
                XYSeries table = add(chart, "the table's choice", chosen);
                if (table != null) {
                    table.setLineColor(Color.RED);
                    table.setMarkerColor(Color.RED);
                    table.setLineStyle(new BasicStroke(3f));
                    table.setMarker(SeriesMarkers.DIAMOND);
                }
                Path file = directory.resolve(collective.configName() + "-" + ranks + "ranks.png");
                BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
                files.add(file);
            }
        }
        return files;
    }

    /** Each configuration's median per size on {@code ranks} ranks, failed points left out. */
    private static Map<Config, SortedMap<Long, Double>> medians(List<Measurement> measurements,
                                                                TunedCollective collective, int ranks) {
        Map<Config, Map<Long, List<Double>>> rounds = new LinkedHashMap<>();
        measurements.stream().filter(m -> m.collective() == collective && m.ranks() == ranks && !m.failed())
                .forEach(m -> rounds.computeIfAbsent(m.config(), k -> new TreeMap<>())
                        .computeIfAbsent(m.size(), k -> new ArrayList<>()).add(m.micros()));
        Map<Config, SortedMap<Long, Double>> medians = new LinkedHashMap<>();
        rounds.forEach((config, bySize) -> {
            SortedMap<Long, Double> line = new TreeMap<>();
            bySize.forEach((size, values) -> line.put(size,
                    Decisions.Summary.of(values.stream().mapToDouble(Double::doubleValue).toArray()).median()));
            medians.put(config, line);
        });
        return medians;
    }

    /** A series of the points that can stand on log axes (above zero); null when none can. */
    private static XYSeries add(XYChart chart, String name, SortedMap<Long, Double> values) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        values.forEach((size, micros) -> {
            if (size > 0 && micros > 0) {
                x.add(size.doubleValue());
                y.add(micros);
            }
        });
        return x.isEmpty() ? null : chart.addSeries(name, x, y);
    }
}
