package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JMCA programs started by Open MPI's {@code mpirun}: the processes find its PMIx server in their
 * environment and wire up through libpmix. Both ways a user starts them — through
 * {@code bin/jmca-java}, and as with Open MPI's own Java bindings, {@code java -cp <JMCA's
 * jars>:<program>} — and an abort. The test installs openmpi-bin where it is missing and is
 * skipped, saying why, where it cannot; likewise for PRRTE's {@code prterun}, which Debian 12
 * does not package.
 */
class MpirunTest {
    static final int RANKS = 4;

    @TempDir
    Path home;

    @BeforeAll
    static void openMpi() {
        String why = Packages.ensure("openmpi-bin", "libpmix2");
        if (why != null) {
            System.err.println("MpirunTest is skipped: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
    }

    /**
     * The programs with their argument and how many ranks print PASS: eager and rendezvous sizes,
     * collectives and random traffic over the transports the wire-up chose. The programs of
     * pml/ob1's matching, argument checks and request semantics behave the same however the job
     * started; they run under jmpirun.
     */
    static Stream<Arguments> programs() {
        return Stream.of(
                Arguments.of("MixedSizesPair", List.of(), 1),
                Arguments.of("Collectives", List.of(), RANKS),
                Arguments.of("RandomStress", List.of("2000"), RANKS),
                Arguments.of("OneAllreduce", List.of("100000"), RANKS));
    }

    /** The environment of an mpirun job: root may run it, as this test does in containers. */
    private Jmca jmca() {
        return new Jmca(home).env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }

    /** {@code mpirun -np N --oversubscribe <starter...> -cp PROGRAMS org.jmca.tests.programs.<program> args}. */
    private Jmca.Result mpirun(int np, List<String> starter, String program, List<String> args) {
        List<String> line = new ArrayList<>(List.of("mpirun", "-np", String.valueOf(np), "--oversubscribe"));
        line.addAll(starter);
        line.addAll(List.of("org.jmca.tests.programs." + program));
        line.addAll(args);
        return jmca().exec(line);
    }

    private static List<String> jmcaJava() {
        return List.of(Jmca.ROOT.resolve("bin/jmca-java").toString(), "-cp", Jmca.PROGRAMS.toString());
    }

    private static List<String> plainJava() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", Jmca.LIB + "/*:" + Jmca.PROGRAMS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void theProgramPassesUnderMpirun(String program, List<String> args, int passes) {
        Leftovers before = Leftovers.before();
        Jmca.Result result = mpirun(RANKS, jmcaJava(), program, args);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(passes);
        before.assertNone();
    }

    /**
     * Without a session directory, the emulated devices' directory in /dev/shm goes with the job's
     * last rank (one device: the three share EmulatedDevice.directory).
     */
    @ParameterizedTest(name = "btl/{0}")
    @ValueSource(strings = {"gm"})
    void anEmulatedDevicesDirectoryGoesWithTheJob(String btl) {
        Leftovers before = Leftovers.before();
        String device = btl.equals("verbs") ? "soft" : "emulated";
        List<String> starter = new ArrayList<>(List.of("-x", "JMCA_MCA_btl=self," + btl,
                "-x", "JMCA_MCA_btl_" + btl + "_device=" + device));
        starter.addAll(jmcaJava());
        Jmca.Result result = mpirun(2, starter, "MixedSizesPair", List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.out()).contains("PASS");
        before.assertNone();
    }

    @Test
    void plainJavaWithJmcasJarsOnTheClassPathRunsAsWithOpenMpisBindings() {
        Jmca.Result result = mpirun(RANKS, plainJava(), "Collectives", List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(RANKS);
    }

    @Test
    void everyRankLearnsItsRankTheSizeAndItsHostFromPmix() throws java.io.IOException {
        Jmca.Result result = mpirun(RANKS, jmcaJava(), "Launching", List.of("env", "PMIX_NAMESPACE"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        String host = NamespaceHosts.run("hostname", "-s").strip();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("rank "))
                .map(l -> l.replaceAll(": PMIX_NAMESPACE=.+", "").replaceAll("\\..*", ""))
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, RANKS)
                        .mapToObj(r -> "rank " + r + " of " + RANKS + " on " + host).toList());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"throw", "nofinalize"})
    void aRankThatExitsWithoutFinalizeEndsTheJob(String how) {
        Jmca.Result result = mpirun(RANKS, jmcaJava(), "Failing", List.of(how, "1"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isNotZero();
        assertThat(result.err()).contains("jmca: rank 1 aborts the job with error code 1: it exited without calling MPI.Finalize");
    }

    @Test
    void anAbortEndsTheJobWithItsCodeAndSaysWhichRank() {
        Jmca.Result result = mpirun(RANKS, jmcaJava(), "Failing", List.of("abort", "2"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isEqualTo(3);
        assertThat(result.err()).contains("jmca: rank 2 aborts the job with error code 3");
    }

    /**
     * Issue 33: under mpirun no launcher gives a session directory, so coll/sm's segments go to
     * /dev/shm, and a job killed before every rank mapped one leaves it there (as a killed job's
     * file is: named, mapped by no process). The next job's coll/sm removes it.
     */
    @Test
    void aCollSmSegmentAKilledJobLeftInDevShmGoesWithTheNextJob() throws java.io.IOException {
        Path left = java.nio.file.Files.write(Path.of("/dev/shm/jmca-pmix-killed-0badcafe.collsm.0.4475327f98e05411"),
                new byte[4096]);
        try {
            Jmca.Result next = mpirun(RANKS, jmcaJava(), "OneAllreduce", List.of("4"));
            assertThat(next.status()).as("status; stderr: %s", next.err()).isZero();
            assertThat(left).as("the killed job's coll/sm segment").doesNotExist();
        } finally {
            java.nio.file.Files.deleteIfExists(left);
        }
    }

    @Test
    void jmcaInfoSaysWhichWireUpARankWouldUse() {
        Jmca.Result underMpirun = jmca().exec(List.of("mpirun", "-np", "1", Jmca.ROOT.resolve("bin/jmca-info").toString()));
        assertThat(underMpirun.out()).as("stderr: %s", underMpirun.err())
                .contains("Wire-up: pmix: a PMIx server started this process (PMIX_NAMESPACE=")
                .contains("libpmix.so.2 loads");
        Jmca.Result alone = jmca().run("jmca-info");
        assertThat(alone.out()).contains("Wire-up: singleton: no launcher started this process");
    }

    @Test
    void prterunStartsTheProgramsWhereItIsInstalled() {
        boolean installed = Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Path.of(d, "prterun").toFile()
                .canExecute());
        String why = "prterun is not installed: Debian 12 packages Open MPI 4.1, whose mpirun carries its own "
                + "PMIx server (tested above); PRRTE comes with Open MPI 5";
        if (!installed) {
            System.err.println("MpirunTest.prterun is skipped: " + why);
        }
        Assumptions.assumeTrue(installed, why);
        List<String> line = new ArrayList<>(List.of("prterun", "-np", String.valueOf(RANKS), "--map-by", ":OVERSUBSCRIBE"));
        line.addAll(jmcaJava());
        line.add("org.jmca.tests.programs.Collectives");
        Jmca.Result result = jmca().exec(line);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(RANKS);
    }
}
