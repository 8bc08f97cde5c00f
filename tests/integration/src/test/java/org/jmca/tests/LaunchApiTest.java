package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jmca.launch.MpiJob;
import org.jmca.launch.RankFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch API (issue 21): jobs started from this JVM, every rank's status and output, a rank's
 * failure as an exception naming it, a cancelled job, and a bad parameter.
 */
class LaunchApiTest {
    private static final String PROBE = "org.jmca.tests.programs.LaunchProbe";

    private static MpiJob.Builder job(int ranks) {
        return MpiJob.processes(ranks).classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0");
    }

    @Test
    void aJobGivesEveryRanksStatusAndOutput() throws Exception {
        MpiJob.Result result = job(3).mca(Map.of("btl", "self,tcp")).main(PROBE).start()
                .waitFor(Duration.ofMinutes(1));
        assertThat(result.status()).isZero();
        assertThat(result.exitStatuses()).containsOnlyKeys(0, 1, 2).allSatisfy((rank, status) ->
                assertThat(status).isZero());
        for (int rank = 0; rank < 3; rank++) {
            assertThat(result.stdout(rank)).containsExactly("hello from rank " + rank + " of 3");
        }
    }

    @Test
    void placementAndEnvironmentAsJmpirunTakesThem() throws Exception {
        MpiJob.Result result = job(2).hosts(org.jmca.rte.Hostname.local() + ":2").mapByNode(false).bindToCore()
                .env("LAUNCH_PROBE", "seen").main(PROBE).start().waitFor(Duration.ofMinutes(1));
        for (int rank = 0; rank < 2; rank++) {
            assertThat(result.stdout(rank)).containsExactly("hello from rank " + rank + " of 2", "LAUNCH_PROBE=seen");
        }
        assertThatThrownBy(() -> job(3).hosts(org.jmca.rte.Hostname.local() + ":2").main(PROBE).start()
                .waitFor(Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("oversubscribe");
    }

    @Test
    void parametersComeAsASnippetToo() throws Exception {
        MpiJob.Result result = job(2).parameters("btl = \"self,sm\"\n").main(PROBE).start()
                .waitFor(Duration.ofMinutes(1));
        assertThat(result.stdout(1)).containsExactly("hello from rank 1 of 2");
        assertThatThrownBy(() -> job(2).parameters("btl = \"self,nosuch\"\n").main(PROBE).start()
                .waitFor(Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'nosuch'")
                .hasMessageContaining(".conf:1");
    }

    @Test
    void aRanksFailureComesBackNamingTheRank() {
        assertThatThrownBy(() -> job(3).main(PROBE, "fail", "1").start().waitFor(Duration.ofMinutes(1)))
                .isInstanceOfSatisfying(RankFailedException.class, e -> {
                    assertThat(e.rank()).isEqualTo(1);
                    assertThat(e.status()).isEqualTo(3);
                    assertThat(e.getMessage()).contains("rank 1").contains("status 3");
                    assertThat(e.result().stderr(1)).contains("rank 1 gives up");
                });
    }

    @Test
    void aCancelledJobStops() throws Exception {
        MpiJob job = job(2).main(PROBE, "hang").start();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!(job.stdoutSoFar(0).contains("ready") && job.stdoutSoFar(1).contains("ready"))) {
            assertThat(System.nanoTime()).as("both ranks ready within a minute").isLessThan(deadline);
            Thread.sleep(20);
        }
        job.cancel();
        assertThatThrownBy(() -> job.waitFor(Duration.ofSeconds(30)))
                .isInstanceOf(java.util.concurrent.CancellationException.class).hasMessageContaining("status 130");
        assertThat(job.isDone()).isTrue();
    }

    /** README's example, compiled from README's text and run here: the Ring on 4 ranks. */
    @Test
    void theReadmesExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Jmca.ROOT.resolve("README.md"));
        int section = readme.indexOf("## Starting jobs from Java: the launch API");
        int start = readme.indexOf("```java\n", section) + "```java\n".length();
        String source = readme.substring(start, readme.indexOf("```", start));
        Path file = dir.resolve("LaunchExample.java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(null, null, null, "-d", dir.toString(), "-cp", MpiJob.class.getProtectionDomain()
                .getCodeSource().getLocation().getPath(), file.toString());
        assertThat(compiled).as("javac of README's example").isZero();
        PrintStream saved = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            loader.loadClass("LaunchExample").getMethod("main", String[].class)
                    .invoke(null, (Object) new String[] {Jmca.ROOT.resolve("examples/target/jmca-examples.jar").toString()});
        } finally {
            System.setOut(saved);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("rank 0 decremented the token to 0, rank 0 exits]")
                .contains("3: [rank 3 exits]");
    }
}
