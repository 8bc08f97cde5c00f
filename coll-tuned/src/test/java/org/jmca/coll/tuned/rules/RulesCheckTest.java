package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jmca-coll-rules: its decisions, its table, its errors and exit statuses. */
class RulesCheckTest {

    private final Path classic = TestFiles.resource("classic-v2.conf");
    private final Path json = TestFiles.resource("rules.json");
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    @Test
    void showsTheDecisionForOneCall() {
        assertThat(run("--coll-rules", classic.toString(), "--coll", "allreduce", "--comm-size", "8",
                "--msg-size", "8k")).isZero();
        assertThat(out.toString().lines()).containsExactly("allreduce  comm size 8  message 8192 B  ->  algorithm 4"
                + " (ring), segment size 0, fan-in/out 0, max requests 16   [" + classic + ":10]");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void showsTheDecisionOfEveryCollectiveOfTheFile() {
        assertThat(run("--coll-rules", classic.toString(), "--comm-size", "16", "--msg-size", "1m")).isZero();
        assertThat(out.toString().lines()).containsExactly(
                "allreduce  comm size 16  message 1048576 B  ->  algorithm 5 (segmented_ring), segment size 65536,"
                        + " fan-in/out 0, max requests 4   [" + classic + ":15]",
                "alltoall   comm size 16  message 1048576 B  ->  algorithm 2 (pairwise), segment size 0,"
                        + " fan-in/out 0, max requests 0   [" + classic + ":28]",
                "bcast      comm size 16  message 1048576 B  ->  algorithm 3 (pipeline), segment size 8192,"
                        + " fan-in/out 0, max requests 0   [" + classic + ":22]");
    }

    @Test
    void saysWhenTheFixedRulesDecide() {
        assertThat(run("--coll-rules", json.toString(), "--coll", "allreduce", "--comm-size", "8",
                "--msg-size", "4096")).isZero();
        assertThat(out.toString().lines()).containsExactly("allreduce  comm size 8  message 4096 B  ->  no rule:"
                + " fixed rules decide");
        assertThat(run("--coll-rules", json.toString(), "--coll", "Allreduce", "--comm-size", "8",
                "--msg-size", "1000")).isZero();
        assertThat(out.toString().strip()).endsWith("->  algorithm 0 (ignore): fixed rules decide   [" + json + ":22]");
    }

    @Test
    void usesTheCommunicatorsLayout() {
        assertThat(run("--coll-rules", json.toString(), "--coll", "allreduce", "--comm-size", "8",
                "--msg-size", "100", "--rank-distribution", "single-node")).isZero();
        assertThat(out.toString()).startsWith("allreduce  comm size 8 (single-node)  message 100 B  ->  algorithm 6"
                + " (rabenseifner), segment size 1024, fan-in/out 4");
    }

    @Test
    void barrierAlwaysLooksUpMessageSizeZero() {
        Path barrier = TestFiles.write(dir, "barrier.conf", "1\n6\n1\n0\n2\n0 3 0 0\n1 4 0 0\n");
        assertThat(run("--coll-rules", barrier.toString(), "--comm-size", "4", "--msg-size", "100")).isZero();
        assertThat(out.toString().lines()).containsExactly("barrier  comm size 4  message 0 B (Open MPI always looks"
                + " up 0 for barrier)  ->  algorithm 3 (recursive_doubling), segment size 0, fan-in/out 0, max"
                + " requests 0   [" + barrier + ":6]");
    }

    @Test
    void printsTheWholeTable() {
        assertThat(run("--coll-rules", classic.toString(), "--coll", "bcast")).isZero();
        assertThat(out.toString().lines()).containsExactly(
                "rules table " + classic + ": 3 collectives",
                "bcast (collective 7), message size = datatype size x count",
                "  communicator size 0 and up   [" + classic + ":19]",
                "    message 0 B to 65535 B  ->  algorithm 6 (binomial), segment size 0, fan-in/out 2,"
                        + " max requests 0   [" + classic + ":21]",
                "    message 65536 B and up  ->  algorithm 3 (pipeline), segment size 8192, fan-in/out 0,"
                        + " max requests 0   [" + classic + ":22]");
    }

    @Test
    void printsCollectivesThatAreOnlyStored() {
        assertThat(run("--coll-rules", json.toString())).isZero();
        assertThat(out.toString()).contains("allreduce (collective 2)", "bcast (collective 7)",
                "gatherv (collective 10): stored only, coll/tuned has no algorithms for it and never consults"
                        + " these rules",
                "  communicator size 2 and up (single-node)   [" + json + ":16]");
    }

    @Test
    void anErrorInTheFileIsReportedWithItsLineAndStatus1() {
        Path bad = TestFiles.write(dir, "bad.conf", "1\n2\n1\n8\n1\n0 7 0 0\n");
        assertThat(run("--coll-rules", bad.toString())).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).startsWith(bad + ":6: expected the algorithm for message size 0 of allreduce"
                + " (collective 2), communicator size 8: a number 0..6, found 7");
    }

    @Test
    void anUnreadableFileIsStatus1() {
        assertThat(run("--coll-rules", dir.resolve("none.conf").toString())).isEqualTo(1);
        assertThat(err.toString().lines()).containsExactly("cannot read rules file " + dir.resolve("none.conf")
                + ": no such file");
    }

    @Test
    void badUsageIsStatus2() {
        assertThat(run("--comm-size", "8")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--coll-rules=FILE'");
        assertThat(run("--coll-rules", classic.toString(), "--comm-size", "8")).isEqualTo(2);
        assertThat(err.toString()).contains("give --comm-size and --msg-size together");
        assertThat(run("--coll-rules", classic.toString(), "--coll", "allreduc")).isEqualTo(2);
        assertThat(err.toString()).contains("no collective 'allreduc' in coll/tuned; did you mean allreduce?");
        assertThat(run("--coll-rules", classic.toString(), "--comm-size", "8", "--msg-size", "lots")).isEqualTo(2);
        assertThat(err.toString()).contains("'lots' is not a byte count such as 4096, 64k, 1m or 2g");
        assertThat(run("--coll-rules", classic.toString(), "--comm-size", "-1", "--msg-size", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--comm-size must be 0 or more, found -1");
    }

    @Test
    void helpIsStatus0() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: jmca-coll-rules");
    }

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return RulesCheck.run(new PrintWriter(out), new PrintWriter(err), args);
    }
}
