package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JMCA programs started by Slurm's {@code srun --mpi=pmix} on a one-node Slurm the test starts
 * ({@link SlurmCluster}). The test installs Slurm and munge where they are missing and is
 * skipped, saying why, where it cannot.
 */
class SrunTest {
    private static SlurmCluster slurm;

    @TempDir
    Path home;

    @BeforeAll
    static void startSlurm() throws IOException {
        String why = Packages.ensure(SlurmCluster.PACKAGES);
        if (why == null) {
            why = Packages.ensure("libpmix2");
        }
        if (why != null) {
            System.err.println("SrunTest is skipped: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
        slurm = new SlurmCluster();
    }

    @AfterAll
    static void stopSlurm() {
        if (slurm != null) {
            slurm.close();
        }
    }

    private Jmca.Result srun(String program, List<String> args) {
        List<String> line = new ArrayList<>(List.of("srun", "--mpi=pmix", "-n", String.valueOf(MpirunTest.RANKS),
                Jmca.ROOT.resolve("bin/jmca-java").toString(), "-cp", Jmca.PROGRAMS.toString(),
                "org.jmca.tests.programs." + program));
        line.addAll(args);
        return new Jmca(home).env("SLURM_CONF", slurm.conf()).exec(line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jmca.tests.MpirunTest#programs")
    void theProgramPassesUnderSrun(String program, List<String> args, int passes) {
        Jmca.Result result = srun(program, args);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(passes);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"throw", "nofinalize"})
    void aRankThatExitsWithoutFinalizeEndsTheStep(String how) {
        Jmca.Result result = srun("Failing", List.of(how, "1"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isNotZero();
        assertThat(result.err()).contains("jmca: rank 1 aborts the job with error code 1: it exited without calling MPI.Finalize");
    }

    @Test
    void anAbortEndsTheStepAndSaysWhichRank() {
        Jmca.Result result = srun("Failing", List.of("abort", "1"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isNotZero();
        assertThat(result.err()).contains("jmca: rank 1 aborts the job with error code 3");
    }
}
