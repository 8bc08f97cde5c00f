package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MPI.Init's warm-up (mpi_warmup_ms) leaves COMM_WORLD as a job without it finds it. */
class InitWarmupTest {
    @TempDir
    Path home;

    @ParameterizedTest(name = "{0} ranks, mpi_warmup_ms {1}")
    @CsvSource({"2, 2000", "3, 2000", "3, 0"})
    void noMessageIsLeftAndCommWorldWorksAsNew(int np, int warmupMillis) {
        Jmca.Result result = new Jmca(home).mpirun(np, "AfterInit",
                List.of("--mca", "mpi_warmup_ms", String.valueOf(warmupMillis)));
        assertThat(result.status()).as(result.err()).isZero();
        for (int rank = 0; rank < np; rank++) {
            assertThat(result.outLines()).contains("PASS " + rank);
        }
    }

    @Test
    void aNegativeBudgetIsOneErrorBeforeAnyRankStarts() {
        Jmca.Result result = new Jmca(home).mpirun(2, "AfterInit", List.of("--mca", "mpi_warmup_ms", "-5"));
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("jmpirun: error: mpi_warmup_ms=-5 (command line --mca mpi_warmup_ms)"
                + " must be 0 (no warm-up) or a number of milliseconds\n");
        assertThat(result.outLines()).isEmpty();
    }
}
