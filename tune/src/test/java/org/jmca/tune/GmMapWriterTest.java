package org.jmca.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jmca.coll.gm.GmSelection;
import org.jmca.coll.tuned.rules.TunedCollective;
import org.jmca.mca.coll.CollFunction;
import org.junit.jupiter.api.Test;

/** Decisions as a coll/gm map: winners by name, the shipped map's own choice where none won, runs merged. */
class GmMapWriterTest {
    private static Decisions.Point point(long size, Config choice) {
        return new Decisions.Point(size, choice, 10, 5, 0.03);
    }

    @Test
    void whereNothingWonTheShippedChoiceIsWrittenAndEqualChoicesMerge() {
        List<String> algorithms = GmSelection.algorithms(CollFunction.BCAST);
        int pipeline = algorithms.indexOf("pipeline") + 1;
        SortedMap<Integer, List<Decisions.Point>> byRanks = new TreeMap<>(Map.of(
                2, List.of(point(8, Config.FIXED), point(1024, new Config(pipeline, 8192)),
                        point(65536, new Config(pipeline, 8192))),
                4, List.of(point(8, Config.FIXED), point(1024, Config.FIXED))));

        List<GmMapWriter.MapRule> rules = GmMapWriter.rules(TunedCollective.BCAST, byRanks);

        GmSelection.Choice shipped8 = GmSelection.shipped(CollFunction.BCAST, 2, 8);
        GmSelection.Choice shipped4 = GmSelection.shipped(CollFunction.BCAST, 4, 8);
        assertThat(rules).containsExactly(
                new GmMapWriter.MapRule(2, 0, shipped8),
                new GmMapWriter.MapRule(2, 9, new GmSelection.Choice("pipeline", 8192, 0)),
                new GmMapWriter.MapRule(4, 0, shipped4));
        assertThat(GmMapWriter.write(Map.of(TunedCollective.BCAST, byRanks), List.of("made here")))
                .startsWith("# made here\nbcast = [\n  { comm_size_min = 2, msg_size_min = 0, alg = "
                        + shipped8.algorithm())
                .contains("{ comm_size_min = 2, msg_size_min = 9, alg = pipeline, segment = 8192 }");
    }
}
