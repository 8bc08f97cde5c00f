package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Asynchronous progress (progress_polling_async) in real jobs over btl/sm. */
class AsynchronousProgressTest {

    @TempDir
    Path home;

    private Jmca.Result run(int np, String program, String mode, List<String> more, String... args) {
        List<String> options = new ArrayList<>(List.of("--mca", "btl", "self,sm", "--mca", "progress_polling_async", mode));
        options.addAll(more);
        return new Jmca(home).mpirun(np, program, options, args);
    }

    private static void assertPassed(Jmca.Result result, String pass, int ranks) {
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS " + pass)).hasSize(ranks);
    }

    @Test
    void randomInterleavingsOfComputationAndMpiCallsLoseAndDuplicateNothingInTheLockFreeMode() {
        // Single copy from 64 KiB, so that most rendezvous can be read by the helper thread.
        Jmca.Result result = run(3, "AsyncStress", "lockfree", List.of("--mca", "btl_sm_single_copy_min", "64k"),
                "150", "expect-async");
        assertPassed(result, "async stress", 3);
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores < 3) {
            assertThat(result.err()).as("3 ranks on %d cores: one warning, from the host's first rank", cores)
                    .containsOnlyOnce("progress_polling_async=lockfree with 3 processes on " + cores + " cores");
        } else {
            assertThat(result.err()).doesNotContain("have no spare core");
        }
    }

    @ParameterizedTest(name = "mode={0}")
    @ValueSource(strings = {"lock", "off"})
    void theOtherModesPassTheSameStress(String mode) {
        assertPassed(run(2, "AsyncStress", mode, List.of(), "60"), "async stress", 2);
    }

    @Test
    void withNoNonBlockingReceivePostedNoNotificationHappens() {
        Jmca.Result result = run(2, "AsyncNotifications", "lockfree", List.of(), "blocking");
        assertPassed(result, "async notifications blocking", 1);
    }

    @Test
    void aReceivePostedBeforeComputingIsReadByTheHelperWhileTheApplicationComputes() {
        Jmca.Result result = run(2, "AsyncNotifications", "lockfree", List.of(), "nonblocking");
        assertPassed(result, "async notifications nonblocking", 1);
    }

    @Test
    void aBadModeStopsTheJobNamingTheParameter() {
        Jmca.Result result = run(2, "AsyncNotifications", "sometimes", List.of());
        assertThat(result.status()).isNotZero();
        assertThat(result.err()).contains("progress_polling_async").contains("sometimes");
    }
}
