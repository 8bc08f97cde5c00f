package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/jmca-tune as a user runs it: a short tuning run on 2 ranks over sm (two collectives, two
 * sizes, one round, few iterations) whose table loads in jmpirun and jmca-info --coll-rules, with
 * its plots and its verification; a run cut short and resumed measures only what was missing; bad
 * input is named.
 */
class JmcaTuneCommandTest {
    private static final String[] SHORT = {"--coll", "allreduce,bcast", "--np", "2", "--sizes", "8,64k",
        "--segsizes", "0", "--rounds", "1", "--iterations", "20,5,5,2", "--jit-warmup", "20", "--mca", "btl", "self,sm"};

    @TempDir
    Path home;

    private static String[] with(String... more) {
        List<String> args = new ArrayList<>(List.of(SHORT));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** The measurement lines of a run's CSV (neither the settings nor the header). */
    private static List<String> points(Path csv) throws IOException {
        return Files.readAllLines(csv).stream().filter(l -> !l.startsWith("#") && !l.startsWith("round,")).toList();
    }

    @Test
    void aShortRunWritesATableThatJmpirunAndJmcaInfoTakeAndAResumedRunMeasuresOnlyWhatIsMissing()
            throws IOException {
        Jmca jmca = new Jmca(home);
        Path prefix = home.resolve("t");
        Jmca.Result tuned = jmca.run("jmca-tune", with("--out", prefix.toString()));

        assertThat(tuned.status()).as(tuned.err()).isIn(0, 3); // 3: the verification says where it lost
        Path rules = home.resolve("t.rules");
        assertThat(Files.readString(rules)).startsWith("rule-file-version-2\n# A rules table for coll/tuned, made by"
                + " jmca-tune");
        assertThat(Files.readString(home.resolve("t.conf"))).contains("collectives: {", "allreduce: [", "bcast: [");
        // 2 sizes of allreduce (the fixed rules and 6 algorithms) and of bcast (the fixed rules and 9): 34 points
        List<String> measured = points(home.resolve("t.csv"));
        assertThat(measured).hasSize(34);
        assertThat(measured).as("every point measured, none failed").allMatch(l -> l.endsWith(",")
                && !l.split(",", -1)[5].isEmpty());
        assertThat(tuned.err()).contains("allreduce on 2 ranks:", "bcast on 2 ranks:", "verdict",
                "with it: faster at");
        for (String plot : List.of("allreduce-2ranks.png", "bcast-2ranks.png")) { // each a PNG
            byte[] png = Files.readAllBytes(home.resolve("t-plots").resolve(plot));
            assertThat(png).as(plot).startsWith(0x89, 'P', 'N', 'G');
        }
        assertThat(points(home.resolve("t-verify.csv"))).as("table and fixed rules, 3 times each at every point")
                .hasSize(2 * 3 * (2 + 2));

        Jmca.Result info = jmca.run("jmca-info", "--coll-rules", rules.toString());
        assertThat(info.status()).as(info.out() + info.err()).isZero();
        Jmca.Result job = jmca.run("jmpirun", "-np", "2", "--mca", "coll_tuned_dynamic_rules_filename",
                rules.toString(), "-cp", Jmca.ROOT.resolve("examples/target/jmca-examples.jar").toString(),
                "examples.Pi");
        assertThat(job.status()).as(job.err()).isZero();

        // cut the run short: the last 10 points are lost; --resume measures those and nothing else
        Path csv = home.resolve("t.csv");
        List<String> lines = Files.readAllLines(csv);
        Files.write(csv, lines.subList(0, lines.size() - 10));
        Jmca.Result resumed = jmca.run("jmca-tune", with("--out", prefix.toString(), "--resume"));
        assertThat(resumed.status()).as(resumed.err()).isIn(0, 3);
        assertThat(resumed.err()).contains("10/10 points (resumed)").doesNotContain("/34 points");
        assertThat(points(csv)).hasSize(34);

        Jmca.Result other = jmca.run("jmca-tune", "--coll", "allreduce", "--np", "2", "--sizes", "8", "--out",
                prefix.toString(), "--resume");
        assertThat(other.status()).isEqualTo(2);
        assertThat(other.err()).contains("--resume: " + csv + " was measured with other settings");
    }

    @Test
    void collGmsSelectionMapIsTunedTheSameWayAndJmpirunTakesIt() throws IOException {
        Jmca jmca = new Jmca(home);
        Path prefix = home.resolve("gm");
        Jmca.Result tuned = jmca.run("jmca-tune", "--component", "gm", "--coll", "bcast", "--np", "2",
                "--sizes", "8,64k", "--segsizes", "0", "--rounds", "1", "--iterations", "20,5,5,2", "--jit-warmup", "20",
                "--mca", "btl", "self,gm", "--mca", "btl_gm_device", "emulated", "--out", prefix.toString());

        assertThat(tuned.status()).as(tuned.err()).isIn(0, 3);
        assertThat(tuned.err()).contains("bcast on 2 ranks:", "shipped map", "with it: faster at");
        String map = Files.readString(home.resolve("gm.conf"));
        assertThat(map).startsWith("# A selection map for coll/gm, made by jmca-tune")
                .contains("bcast = [\n  { comm_size_min = 2, msg_size_min = 0, alg = ");
        assertThat(points(home.resolve("gm.csv"))).as("every point measured").allMatch(l -> l.endsWith(","));

        Jmca.Result job = jmca.run("jmpirun", "-np", "2", "--mca", "btl", "self,gm", "--mca", "btl_gm_device",
                "emulated", "--mca", "coll_gm_selection_map", home.resolve("gm.conf").toString(), "--mca",
                "coll_base_verbose", "1", "-cp", Jmca.ROOT.resolve("examples/target/jmca-examples.jar").toString(),
                "examples.Pi");
        assertThat(job.status()).as(job.err()).isZero();
        assertThat(job.err()).contains("selection map " + home.resolve("gm.conf"));
    }

    @Test
    void badInputIsNamed() {
        Jmca jmca = new Jmca(home);
        Jmca.Result coll = jmca.run("jmca-tune", "--coll", "allreduce,scan");
        assertThat(coll.status()).isEqualTo(2);
        assertThat(coll.err()).contains("--coll scan: jmca-tune measures bcast, allreduce, reduce");
        Jmca.Result np = jmca.run("jmca-tune", "--np", "4,2");
        assertThat(np.err()).contains("--np [4, 2]: sizes must be ascending");
        Jmca.Result sizes = jmca.run("jmca-tune", "--sizes", "1m:8");
        assertThat(sizes.err()).contains("--sizes 1m:8: '1m:8' is not a range of sizes");
        Jmca.Result missing = jmca.run("jmca-tune", "--verify", home.resolve("none.rules").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("none.rules");
    }
}
