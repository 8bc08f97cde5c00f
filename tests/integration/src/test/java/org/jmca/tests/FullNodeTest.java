package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jmca.mca.os.ThreadPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full node as jmpirun runs it: a bound rank binds its own thread and leaves its JVM's JIT
 * compilers free, a rank JVM is sized for its share of the host, and a rank JVM that refuses the
 * AOT cache says so.
 */
class FullNodeTest {
    private static final Pattern PLACEMENT =
            Pattern.compile("rank (\\d+): thread ([0-9,-]+), compilers ([0-9,-]+), processors (\\d+)");

    @TempDir
    Path home;

    private final String allowed = allowedList();

    private record Placement(int rank, String thread, String compilers, int processors) {
    }

    private List<Placement> placements(Jmca.Result result, int np) {
        assertThat(result.status()).as(result.err()).isZero();
        List<Placement> placements = new ArrayList<>();
        for (String line : result.outLines()) {
            Matcher m = PLACEMENT.matcher(line);
            if (m.matches()) {
                placements.add(new Placement(Integer.parseInt(m.group(1)), m.group(2), m.group(3),
                        Integer.parseInt(m.group(4))));
            }
        }
        assertThat(placements).as(result.out()).hasSize(np);
        return placements;
    }

    @Test
    void aBoundRankProcessBindsItsOwnThreadAndLeavesItsCompilersFree() {
        Jmca.Result result = new Jmca(home).mpirun(2, "Launching", List.of("--bind-to", "core", "--report-bindings"),
                "placement");
        int[] cpus = ThreadPlacement.allowedCpus();
        for (Placement p : placements(result, 2)) {
            assertThat(p.thread()).isEqualTo(String.valueOf(cpus[p.rank() % cpus.length]));
            assertThat(p.compilers()).isEqualTo(allowed);
            assertThat(p.processors()).isEqualTo(Math.max(1, cpus.length / 2));
            assertThat(result.err()).contains("jmca: rank " + p.rank() + " on host ")
                    .contains("thread \"main\" bound to CPU " + p.thread());
        }
    }

    @Test
    void anUnboundRankRunsAnywhere() {
        for (Placement p : placements(new Jmca(home).mpirun(2, "Launching", List.of(), "placement"), 2)) {
            assertThat(p.thread()).isEqualTo(allowed);
            assertThat(p.compilers()).isEqualTo(allowed);
        }
    }

    @Test
    void boundThreadRanksBindEachItsOwnThread() {
        Jmca.Result result = new Jmca(home).mpirun(2, "Launching", List.of("--ranks-as", "threads", "--bind-to", "core",
                "--report-bindings"), "placement");
        int[] cpus = ThreadPlacement.allowedCpus();
        for (Placement p : placements(result, 2)) {
            assertThat(p.thread()).isEqualTo(String.valueOf(cpus[p.rank() % cpus.length]));
            assertThat(p.compilers()).isEqualTo(allowed);
            assertThat(result.err()).contains("thread \"jmca-rank-" + p.rank() + "\" bound to CPU " + p.thread());
        }
    }

    @Test
    void theUsersOwnJvmSizeWins() {
        for (Placement p : placements(new Jmca(home).mpirun(2, "Launching",
                List.of("--jvm-arg=-XX:ActiveProcessorCount=3"), "placement"), 2)) {
            assertThat(p.processors()).isEqualTo(3);
        }
    }

    @Test
    void aRankJvmThatRefusesTheAotCacheSaysSoOncePerHost() {
        assumeTrue(Files.isRegularFile(Jmca.ROOT.resolve("dist/target/jmca/aot/jmca-rank.aot")),
                "the build trained no AOT cache (dist/train-aot)");
        // without compressed object pointers the JVM cannot take the cache, which was trained with them
        Jmca.Result result = new Jmca(home).mpirun(2, "Launching", List.of("--jvm-arg=-XX:-UseCompressedOops"),
                "placement");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.err().lines().filter(l -> l.contains("run without JMCA's ahead-of-time cache"))).hasSize(1);
        Jmca.Result info = new Jmca(home).run("jmca-info");
        assertThat(info.out()).contains("the ranks' JVMs (jmca-rank.aot): used");
    }

    private static String allowedList() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
