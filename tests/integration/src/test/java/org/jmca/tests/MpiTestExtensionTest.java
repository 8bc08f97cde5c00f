package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import mpi.MPI;
import mpi.MPIException;
import org.jmca.junit.MpiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The JUnit 5 extension (issue 21): {@code @MpiTest} methods run on every rank as threads of this
 * JVM, each rank with its own statics; a failed assertion is reported with its rank, a hang with
 * every rank's stack.
 */
class MpiTestExtensionTest {
    /** One per rank: each rank's copy of this class counts its own calls. */
    private static int calls;

    @MpiTest(ranks = {1, 2, 4, 16}, mca = "btl=self,thread")
    void everyRankRunsTheMethodWithItsOwnStatics() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] sum = {rank};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
        assertThat(sum[0]).isEqualTo(size * (size - 1) / 2);
        calls++;
        assertThat(calls).as("calls seen by rank %d's copy of the class", rank).isEqualTo(1);
    }

    @Test
    void aFailedAssertionNamesItsRankAndAHangShowsEveryRanksStack() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Fixtures.class)).build(), listener);
        Map<String, Throwable> failures = new TreeMap<>();
        for (TestExecutionSummary.Failure failure : listener.getSummary().getFailures()) {
            failures.put(failure.getTestIdentifier().getLegacyReportingName(), failure.getException());
        }
        assertThat(listener.getSummary().getTestsSucceededCount()).isZero();
        assertThat(failures).hasSize(2);
        assertThat(failures.get("rankTwoFails()[1]")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("rank 2 of 3").hasMessageContaining("rank two's check");
        assertThat(failures.get("rankOneHangs()[1]")).hasMessageContaining("did not finish within 2 s")
                .hasMessageContaining("rank 0:").hasMessageContaining("rank 1:")
                .hasMessageContaining("Fixtures.rankOneHangs");
    }

    /** README's example, compiled from README's text and run through the JUnit launcher: 3 runs pass. */
    @Test
    void theReadmesExampleCompilesAndPasses(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Jmca.ROOT.resolve("README.md"));
        int section = readme.indexOf("## Testing MPI code with JUnit 5");
        int start = readme.indexOf("```java\n", section) + "```java\n".length();
        Path file = dir.resolve("AllreduceTest.java");
        Files.writeString(file, readme.substring(start, readme.indexOf("```", start)));
        String classPath = Stream.of(MpiTest.class, MPI.class, Test.class, org.apiguardian.api.API.class)
                .map(c -> c.getProtectionDomain().getCodeSource().getLocation().getPath())
                .collect(Collectors.joining(java.io.File.pathSeparator));
        int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), "-cp",
                classPath, file.toString());
        assertThat(compiled).as("javac of README's example").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            SummaryGeneratingListener listener = new SummaryGeneratingListener();
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(loader.loadClass("AllreduceTest"))).build(), listener);
            assertThat(listener.getSummary().getFailures()).isEmpty();
            assertThat(listener.getSummary().getTestsSucceededCount()).isEqualTo(3);
        }
    }

    /** Tests that fail on purpose, run by the test above (not found by the build: a nested class). */
    static class Fixtures {
        @MpiTest(ranks = 3)
        void rankTwoFails() throws MPIException {
            int rank = MPI.COMM_WORLD.getRank();
            MPI.COMM_WORLD.barrier();
            assertThat(List.of(rank)).as("rank two's check").doesNotContain(2);
        }

        @MpiTest(ranks = 2, timeoutSeconds = 2)
        void rankOneHangs() throws MPIException {
            if (MPI.COMM_WORLD.getRank() == 1) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 99); // rank 0 never sends it
            }
        }
    }
}
