package org.jmca.tune;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jmca.coll.tuned.rules.TunedCollective;

/**
 * The measurements of a run, one CSV line per point, written as each point comes so that an
 * interrupted run loses nothing. Its first line records the settings that shape the
 * measurements; a resumed run must have the same.
 *
 * <pre>
 * # jmca-tune settings: --np 2,4 --sizes 8:1m ...
 * round,collective,ranks,config,size,micros,error
 * 1,allreduce,2,3,8,2.41,
 * </pre>
 */
final class MeasurementFile {
    private static final String SETTINGS = "# jmca-tune settings: ";
    private static final String HEADER = "round,collective,ranks,config,size,micros,error";

    private final Path path;

    private MeasurementFile(Path path) {
        this.path = path;
    }

    /** A new file, replacing what is there, for a run with {@code settings}. */
    static MeasurementFile create(Path path, String settings) {
        write(path, SETTINGS + settings + "\n" + HEADER + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return new MeasurementFile(path);
    }

    /**
     * The file of an interrupted run, to continue.
     *
     * @throws IllegalArgumentException if it is missing or was made with other settings
     */
    static MeasurementFile resume(Path path, String settings) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("--resume: there is no measurements file " + path + " to continue");
        }
        String first = lines(path).stream().findFirst().orElse("");
        if (!first.equals(SETTINGS + settings)) {
            throw new IllegalArgumentException("--resume: " + path + " was measured with other settings\n  it:   "
                    + first.replace(SETTINGS, "") + "\n  this: " + settings
                    + "\nrun with those settings, or without --resume to start again");
        }
        return new MeasurementFile(path);
    }

    Path path() {
        return path;
    }

    void append(Measurement m) {
        String line = m.round() + "," + m.collective().configName() + "," + m.ranks() + "," + m.config().key() + ","
                + m.size() + "," + (m.failed() ? "" : String.format(Locale.ROOT, "%.3f", m.micros())) + ","
                + (m.failed() ? m.error().replace(',', ';').replace('\n', ' ') : "") + "\n";
        write(path, line, StandardOpenOption.APPEND);
    }

    /** Every measurement in the file; a line cut short by an interrupted write is left out. */
    List<Measurement> read() {
        List<Measurement> all = new ArrayList<>();
        for (String line : lines(path)) {
            if (line.startsWith("#") || line.equals(HEADER) || line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != 7) {
                continue;
            }
            try {
                TunedCollective collective = TunedCollective.byName(f[1]).orElseThrow();
                boolean failed = !f[6].isEmpty();
                all.add(new Measurement(Integer.parseInt(f[0]), collective, Integer.parseInt(f[2]),
                        Config.parse(f[3]), Long.parseLong(f[4]), failed ? Double.NaN : Double.parseDouble(f[5]),
                        failed ? f[6] : null));
            } catch (RuntimeException e) {
                // a line cut short when the run was killed: measured again
            }
        }
        return all;
    }

    private static List<String> lines(Path path) {
        try {
            return Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path path, String text, StandardOpenOption... options) {
        try {
            Files.writeString(path, text, options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }
}
