package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MPI.Init's warm-up (mpi_warmup_ms) leaves COMM_WORLD as a job without it finds it, and says what it did. */
class InitWarmupTest {
    @TempDir
    Path home;

    @ParameterizedTest(name = "{0} ranks, mpi_warmup_ms {1}")
    @CsvSource({"2, 2000", "3, 2000", "3, 0"})
    void noMessageIsLeftAndCommWorldWorksAsNew(int np, int warmupMillis) {
        Jmca.Result result = new Jmca(home).mpirun(np, "AfterInit",
                List.of("--mca", "mpi_warmup_ms", String.valueOf(warmupMillis), "--mca", "mpi_warmup_verbose", "1"));
        assertThat(result.status()).as(result.err()).isZero();
        for (int rank = 0; rank < np; rank++) {
            assertThat(result.outLines()).contains("PASS " + rank);
        }
        // it ends when the JIT is done, or at the budget on a slow machine; either way each rank says so
        assertThat(result.err().lines().filter(l -> l.matches("jmca: rank \\d+: MPI.Init's warm-up took \\d+ ms: \\d+"
                + " batches, \\d+ rounds of calls; this JVM's JIT compilers worked \\d+ ms meanwhile; it ended .*")))
                .hasSize(warmupMillis > 0 ? np : 0);
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
