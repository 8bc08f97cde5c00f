package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.jmca.launch.MpiJob;
import org.jmca.launch.RankFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ranks as threads of one JVM (issue 21): every point-to-point and collective program passes
 * with its ranks as threads of this JVM, the examples pass under {@code jmpirun --ranks-as
 * threads}, a rank that throws or exits ends the job naming it, and 100 jobs leave the JVM as
 * they found it.
 */
class ThreadRanksTest {
    private static final String PROGRAMS = "org.jmca.tests.programs.";

    private static MpiJob.Builder threads(int ranks) {
        return MpiJob.threads(ranks).classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0");
    }

    private static MpiJob.Result run(MpiJob.Builder builder) throws Exception {
        MpiJob job = builder.start();
        try {
            return job.waitFor(Duration.ofMinutes(2));
        } finally {
            if (!job.isDone()) {
                job.cancel(); // a hung job must not leave its ranks running into the next test
            }
        }
    }

    @ParameterizedTest(name = "{1} on {0} thread ranks")
    @CsvSource(delimiter = '|', textBlock = """
            1  | LaunchProbe         |
            2  | Wildcards           |
            16 | Wildcards           |
            3  | UnexpectedAndProbe  |
            4  | RandomStress        | 3000
            2  | Nonblocking         |
            4  | Semantics           |
            3  | BadInput            |
            2  | MixedSizesPair      |
            3  | DerivedTypes        |
            4  | Topologies          |
            5  | Collectives         | 100000
            16 | Collectives         | 1000
            4  | OneAllreduce        | 100000
            3  | Intercomms          |
            4  | OneSided            | 65536
            2  | RingStress          | 30000
            3  | ApiEnvironment      |
            """)
    void everyProgramPassesWithItsRanksAsThreads(int ranks, String program, String argument) throws Exception {
        String[] args = argument == null ? new String[0] : new String[] {argument};
        MpiJob.Result result = run(threads(ranks).mca("btl", "self,thread").main(PROGRAMS + program, args));
        assertThat(result.status()).isZero();
        assertThat(result.exitStatuses()).hasSize(ranks).allSatisfy((rank, status) -> assertThat(status).isZero());
        List<String> lines = result.stdout().values().stream().flatMap(List::stream).toList();
        assertThat(lines).as("output of %s", program)
                .anyMatch(line -> line.startsWith("PASS") || line.startsWith("hello from rank 0 of 1"))
                .noneMatch(line -> line.startsWith("FAIL"));
    }

    @ParameterizedTest(name = "examples.{0}")
    @ValueSource(strings = {"Hello", "Ring", "Pi"})
    void theExamplesRunUnchangedUnderJmpirunWithRanksAsThreads(String example, @TempDir Path home) {
        Jmca.Result result = new Jmca(home).run("jmpirun", "-np", "4", "--ranks-as", "threads", "-cp",
                Jmca.ROOT.resolve("examples/target/jmca-examples.jar").toString(), "examples." + example);
        assertThat(result.status()).as("stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).isNotEmpty();
    }

    @Test
    void aLambdaRunsOnEveryRankAsThreadsAndAsProcesses() throws Exception {
        for (MpiJob.Builder job : List.of(MpiJob.threads(3), MpiJob.processes(3))) {
            MpiJob.Result result = run(job.mca("mpi_warmup_ms", "0")
                    .main(org.jmca.tests.programs.Lambdas.hello("hello"), "there"));
            for (int rank = 0; rank < 3; rank++) {
                assertThat(result.stdout(rank)).containsExactly("hello there from rank " + rank + " of 3, call 1");
            }
        }
    }

    @Test
    void aRankThatThrowsEndsTheJobNamingIt() {
        assertThatThrownBy(() -> run(threads(3).main(PROGRAMS + "Failing", "throw", "1")))
                .isInstanceOfSatisfying(RankFailedException.class, e -> {
                    assertThat(e.rank()).isEqualTo(1);
                    assertThat(e.getMessage()).contains("rank 1 threw java.lang.IllegalStateException: rank 1 fails"
                            + " on purpose");
                    assertThat(e.result().stderr(1)).anyMatch(line -> line.contains("org.jmca.tests.programs.Failing.main"));
                });
    }

    @Test
    void aRankThatCallsSystemExitEndsTheJobAndNotTheJvm() {
        assertThatThrownBy(() -> run(threads(3).main(PROGRAMS + "LaunchProbe", "fail", "2")))
                .isInstanceOfSatisfying(RankFailedException.class, e -> {
                    assertThat(e.rank()).isEqualTo(2);
                    assertThat(e.status()).isEqualTo(3);
                    assertThat(e.getMessage()).contains("rank 2 called System.exit(3)");
                    assertThat(e.result().stderr(2)).contains("rank 2 gives up");
                });
    }

    @Test
    void eachRankHasItsOwnEnvironmentAndACancelledJobsThreadsEnd() throws Exception {
        MpiJob.Result result = run(threads(2).env("LAUNCH_PROBE", "seen").main(PROGRAMS + "LaunchProbe"));
        assertThat(result.stdout(1)).containsExactly("hello from rank 1 of 2", "LAUNCH_PROBE=seen");
        MpiJob job = threads(2).main(PROGRAMS + "LaunchProbe", "hang").start();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!(job.stdoutSoFar(0).contains("ready") && job.stdoutSoFar(1).contains("ready"))) {
            assertThat(System.nanoTime()).as("both ranks ready within a minute").isLessThan(deadline);
            Thread.sleep(20);
        }
        job.cancel();
        assertThatThrownBy(() -> job.waitFor(Duration.ofSeconds(30))).isInstanceOf(CancellationException.class);
        assertThat(rankThreads()).isEmpty();
    }

    /**
     * 100 jobs in one JVM: afterwards no rank thread is left, and the classes each rank loaded
     * again (the mpi package, the program) have been unloaded with their class loaders. (How
     * much heap the JVM keeps is the collector's choice, not JMCA's: not asserted.)
     */
    @Test
    void aHundredJobsLeaveNoThreadOrClassLoaderBehind() throws Exception {
        var classes = ManagementFactory.getClassLoadingMXBean();
        for (int job = 0; job < 20; job++) {
            run(threads(2).main(PROGRAMS + "LaunchProbe"));
        }
        long loadedAfter20 = settledLoadedClasses();
        for (int job = 20; job < 100; job++) {
            MpiJob.Result result = run(threads(2).main(PROGRAMS + "LaunchProbe"));
            assertThat(result.stdout(1)).containsExactly("hello from rank 1 of 2");
        }
        long loadedAfter100 = settledLoadedClasses();
        assertThat(rankThreads()).isEmpty();
        // Each job loads some hundred classes per rank again: kept, 80 jobs would add tens of thousands.
        assertThat(loadedAfter100).as("classes loaded after 100 jobs (after 20: %d; unloaded: %d)", loadedAfter20,
                classes.getUnloadedClassCount()).isLessThan(loadedAfter20 + 500);
    }

    private static long settledLoadedClasses() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
    }

    private static List<String> rankThreads() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> names;
        do {
            Thread.sleep(50);
            names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(name -> name.startsWith("jmca-rank-") || name.startsWith("btl-") || name.startsWith("jmca-"))
                    .filter(name -> !name.equals("jmca-job")).toList();
        } while (!names.isEmpty() && System.nanoTime() < deadline);
        return names;
    }
}
