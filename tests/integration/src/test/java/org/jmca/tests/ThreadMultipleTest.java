package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.launch.MpiJob;

/**
 * MPI_THREAD_MULTIPLE (issue 21): random mixes of blocking and non-blocking sends, receives and
 * probes from 2 to 8 threads per rank on 2 to 4 ranks deliver every message exactly once and in
 * MPI order per (sender, communicator, tag), over btl/thread, sm and tcp. The ranks are threads of
 * this JVM (a job costs a fraction of a second), each transport carrying their traffic; once as
 * rank processes too.
 */
class ThreadMultipleTest {

    @Property(tries = 30, seed = "21")
    void everyMessageArrivesOnceAndInOrderWhateverTheThreadsDo(
            @ForAll @IntRange(min = 2, max = 4) int ranks,
            @ForAll @IntRange(min = 1, max = 4) int threadPairs,
            @ForAll("transports") String btl,
            @ForAll long seed) throws Exception {
        MpiJob job = MpiJob.threads(ranks).classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0")
                .mca("btl", btl).main("org.jmca.tests.programs.ThreadMultiple", String.valueOf(threadPairs), "40",
                        String.valueOf(seed))
                .start();
        MpiJob.Result result;
        try {
            result = job.waitFor(Duration.ofMinutes(2));
        } finally {
            if (!job.isDone()) {
                job.cancel(); // a hung try must not leave its ranks running into the next
            }
        }
        assertThat(result.status()).isZero();
        for (int rank = 0; rank < ranks; rank++) {
            assertThat(result.stdout(rank)).as("rank %d over %s", rank, btl)
                    .containsExactly("PASS thread multiple: rank " + rank + ", " + threadPairs + " threads, "
                            + 40 * (ranks - 1) * threadPairs + " messages received");
        }
    }

    /** The same program as rank processes: their threads over sm. */
    @org.junit.jupiter.api.Test
    void everyMessageArrivesOnceAndInOrderAsProcessesToo() throws Exception {
        MpiJob.Result result = MpiJob.processes(2).classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0")
                .mca("btl", "self,sm").main("org.jmca.tests.programs.ThreadMultiple", "3", "40", "7").start()
                .waitFor(Duration.ofMinutes(2));
        assertThat(result.status()).isZero();
        for (int rank = 0; rank < 2; rank++) {
            assertThat(result.stdout(rank)).containsExactly("PASS thread multiple: rank " + rank + ", 3 threads, "
                    + 40 * 3 + " messages received");
        }
    }

    @Provide
    Arbitrary<String> transports() {
        return Arbitraries.of("self,thread", "self,sm", "self,tcp");
    }
}
