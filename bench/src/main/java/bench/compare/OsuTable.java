package bench.compare;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The table an OSU-style benchmark prints: comment lines start with '#', each other line is a
 * message size followed by values; the first value is the one compared (latency in
 * microseconds, bandwidth in MB/s, availability in percent). OSU's barrier prints a value
 * without a size: such a line counts as size 0.
 */
final class OsuTable {
    private OsuTable() {
    }

    /**
     * Size → first value of every data line.
     *
     * @throws IllegalArgumentException if the output holds no data line, or a line is not numbers
     */
    static SortedMap<Long, Double> parse(String output, String what) {
        SortedMap<Long, Double> rows = new TreeMap<>();
        for (String line : output.lines().toList()) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            String[] fields = text.split("\\s+");
            try {
                if (fields.length == 1) {
                    rows.put(0L, Double.parseDouble(fields[0]));
                    continue;
                }
                rows.put(Long.parseLong(fields[0]), Double.parseDouble(fields[1]));
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException(what + " printed a line that is not 'size value...': '" + text + "'");
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(what + " printed no results; its output was:\n" + output);
        }
        return rows;
    }
}
