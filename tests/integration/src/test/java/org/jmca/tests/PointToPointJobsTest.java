package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI programs (org.jmca.tests.programs) run through bin/jmpirun on several JVMs. Each program
 * checks its own results and prints PASS; a failed check ends its rank with status 1.
 */
class PointToPointJobsTest {

    @TempDir
    Path home;

    private Jmca.Result run(int np, String program, String... args) {
        return new Jmca(home).mpirun(np, program, List.of(), args);
    }

    private static void assertPassed(Jmca.Result result, String pass) {
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.out()).contains("PASS " + pass);
    }

    @ParameterizedTest(name = "btl={0}")
    @ValueSource(strings = {"self,tcp", "tcp,self"})
    void messagesAcrossTheRendezvousThresholdStayInOrderAndIntact(String btls) {
        assertPassed(new Jmca(home).mpirun(2, "MixedSizesPair", List.of("--mca", "btl", btls)), "mixed sizes");
    }

    @Test
    void wildcardReceivesReportTheTrueSourceAndTag() {
        assertPassed(run(4, "Wildcards"), "wildcards");
    }

    @Test
    void unexpectedMessagesCanBeProbedThenReceived() {
        assertPassed(run(3, "UnexpectedAndProbe"), "unexpected messages and probe");
    }

    @Test
    void tenThousandRandomMessagesArriveByteForByte() {
        Jmca.Result result = run(4, "RandomStress", "10000");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS random stress")).hasSize(4);
    }

    @Test
    void nonBlockingRequestsWaitAllWaitAnyTestAndPersistent() {
        assertPassed(run(2, "Nonblocking"), "non-blocking requests");
    }

    @Test
    void synchronousBufferedReadyCancelTruncationDupSplitAndSelf() {
        assertPassed(run(4, "Semantics"), "semantics");
    }

    @Test
    void badArgumentsGiveTheRightErrorClassUnderErrorsReturn() {
        assertPassed(run(3, "BadInput"), "bad input");
    }

    @Test
    void aBadArgumentUnderTheDefaultHandlerAbortsTheJobWithAClearMessage() {
        Jmca.Result result = run(3, "BadInput", "fatal");
        assertThat(result.status()).isEqualTo(6);
        assertThat(result.err()).contains("jmca: rank 1: MPI_Send on MPI_COMM_WORLD: MPI_ERR_RANK: invalid rank 6:"
                + " MPI_COMM_WORLD has ranks 0..2 (or MPI.PROC_NULL)")
                .contains("jmpirun: rank 1 aborted the job with error code 6");
    }

    @Test
    void aRankThatThrowsEndsTheJobNamingIt() {
        Jmca.Result result = run(3, "Failing", "throw", "2");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("rank 2 fails on purpose")
                .containsPattern("jmpirun: rank 2 \\(pid \\d+\\) exited with status 1; stopping the job");
    }

    @Test
    void mpiAbortEndsTheJobWithItsCode() {
        Jmca.Result result = run(3, "Failing", "abort", "1");
        assertThat(result.status()).isEqualTo(3);
        assertThat(result.err()).contains("jmpirun: rank 1 aborted the job with error code 3");
    }

    @Test
    void aRankThatReturnsWithoutFinalizeIsAFailure() {
        Jmca.Result result = run(3, "Failing", "nofinalize");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).containsPattern("rank 1 \\(pid \\d+\\) exited without calling MPI.Finalize");
    }

    @Test
    void theExamplesRunThroughTheLauncher() {
        Jmca jmca = new Jmca(home);
        String examples = Jmca.ROOT.resolve("examples/target/jmca-examples.jar").toString();
        Jmca.Result ring = jmca.run("jmpirun", "-np", "4", "-cp", examples, "examples.Ring", "5");
        assertThat(ring.status()).as(ring.err()).isZero();
        assertThat(ring.out()).contains("rank 0 decremented the token to 0").contains("rank 3 exits");
        Jmca.Result pi = jmca.run("jmpirun", "-np", "2", "--tag-output", "-cp", examples, "examples.Pi", "1000000");
        assertThat(pi.status()).as(pi.err()).isZero();
        assertThat(pi.out()).containsPattern("\\[1,0\\]<stdout>:pi is approximately 3\\.14159265\\d+, error \\d");
    }

    @Test
    void aProgramStartedWithoutTheLauncherIsASingleton() {
        String cp = Jmca.LIB.resolve("*") + File.pathSeparator + Jmca.ROOT.resolve("examples/target/jmca-examples.jar");
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Jmca.Result result = new Jmca(home).exec(List.of(javaCommand, "-cp", cp, "examples.Hello"));
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("Hello from rank 0 of 1 on ");
    }

    @Test
    void aBadComponentListStopsTheJobBeforeAnyRankStarts() {
        Jmca.Result result = new Jmca(home).mpirun(2, "Wildcards", List.of("--mca", "btl", "self,^tcp"));
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("jmpirun: error: btl=self,^tcp (command line --mca btl): '^' may stand only"
                + " at the start");
        assertThat(result.out()).isEmpty();
    }
}
