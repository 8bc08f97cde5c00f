package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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

    /** Every program, its ranks and its argument, as the thread ranks of this JVM run it. */
    private static final String AS_THREADS = """
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
            2  | AfterInit           |
            3  | FileIo              | {dir}
            2  | CollectiveSweep     |
            2  | AsyncStress         | 60
            2  | McastBcasts         | 5 1
            """;

    /** The programs that the table above leaves out, and why. */
    private static final Map<String, String> NOT_IN_THE_TABLE = Map.ofEntries(
            Map.entry("Failing", "fails on purpose: the failure tests below run its roles as threads"),
            Map.entry("NonPublicMain", "JavaLaunchRulesTest runs it in both modes"),
            Map.entry("InstanceMain", "JavaLaunchRulesTest runs it in both modes"),
            Map.entry("NoArgsMain", "JavaLaunchRulesTest runs it in both modes"),
            Map.entry("NoMain", "has no main method java would run: JavaLaunchRulesTest checks the error in both"
                    + " modes"),
            Map.entry("OpenMpiBehaviours", "JavaApiTest runs it as threads and as processes"),
            Map.entry("DynamicJobs", "its jobs meet and spawn over btl/tcp, which this table's ranks do not"
                    + " select; SpawnedPrograms spawns from thread ranks (DynamicProcessesTest)"),
            Map.entry("SpawnedPrograms", "DynamicProcessesTest runs it as threads and as processes"),
            Map.entry("CollectiveContract", "CollContractTest runs it as threads and as processes, for every coll"
                    + " component"),
            Map.entry("ThreadMultiple", "ThreadMultipleTest runs it as threads over every transport, and as"
                    + " processes"),
            Map.entry("AsyncNotifications", "checks the doorbells of asynchronous progress, which are btl/sm's:"
                    + " this table's btl/thread rings none (as threads over self,sm it passes)"),
            Map.entry("Launching", "tests what jmpirun gives rank processes (LauncherTest): rank 0's standard input,"
                    + " which thread ranks share with jmpirun, a rank late to MPI.Init, the exported environment"));

    @ParameterizedTest(name = "{1} on {0} thread ranks")
    @CsvSource(delimiter = '|', textBlock = AS_THREADS)
    void everyProgramPassesWithItsRanksAsThreads(int ranks, String program, String argument, @TempDir Path dir)
            throws Exception {
        String[] args = argument == null ? new String[0] : argument.replace("{dir}", dir.toString())
                .replace("{programs}", Jmca.PROGRAMS.toString()).split(" ");
        MpiJob.Result result = run(threads(ranks).mca("btl", "self,thread").main(PROGRAMS + program, args));
        assertThat(result.status()).isZero();
        assertThat(result.exitStatuses()).hasSize(ranks).allSatisfy((rank, status) -> assertThat(status).isZero());
        List<String> lines = result.stdout().values().stream().flatMap(List::stream).toList();
        assertThat(lines).as("output of %s", program)
                .anyMatch(line -> line.startsWith("PASS") || line.startsWith("hello from rank 0 of 1"))
                .noneMatch(line -> line.startsWith("FAIL"));
    }

    /**
     * Every program of the suite runs as thread ranks in the table above (or the table says why
     * not) and as rank processes in another test class, so that a difference between the two
     * ways of starting a program is found here, not by users.
     */
    @Test
    void everyProgramRunsAsThreadsHereAndAsProcessesElsewhere() throws Exception {
        Path sources = Jmca.ROOT.resolve("tests/integration/src/test/java/org/jmca/tests");
        StringBuilder others = new StringBuilder();
        try (var files = Files.list(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (!file.getFileName().toString().equals("ThreadRanksTest.java")) {
                    others.append(Files.readString(file));
                }
            }
        }
        Set<String> table = AS_THREADS.lines().map(line -> line.split("\\|")[1].strip()).collect(Collectors.toSet());
        Set<String> programs = new TreeSet<>();
        try (var files = Files.list(Jmca.PROGRAMS.resolve("org/jmca/tests/programs"))) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$") && Arrays.stream(Class.forName(PROGRAMS
                        + name.replace(".class", ""), false, getClass().getClassLoader()).getDeclaredMethods())
                        .anyMatch(m -> m.getName().equals("main"))) {
                    programs.add(name.replace(".class", ""));
                }
            }
        }
        assertThat(programs).hasSizeGreaterThan(25);
        for (String program : programs) {
            assertThat(table.contains(program) || NOT_IN_THE_TABLE.containsKey(program))
                    .as("%s runs as thread ranks in this class's table, or NOT_IN_THE_TABLE says why not", program)
                    .isTrue();
            assertThat(Pattern.compile("\\b" + program + "\\b").matcher(others).find())
                    .as("%s runs as rank processes in another test class", program).isTrue();
        }
        assertThat(programs).containsAll(NOT_IN_THE_TABLE.keySet()).containsAll(table);
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
                    // jmca-spawner lives as long as the JVM once a rank has spawned (its children's parent-death signal)
                    .filter(name -> !name.equals("jmca-job") && !name.equals("jmca-spawner")).toList();
        } while (!names.isEmpty() && System.nanoTime() < deadline);
        return names;
    }
}
