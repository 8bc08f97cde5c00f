package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The point-to-point and collective programs over {@code --mca btl self,gm} on the emulated GM
 * NIC (few send tokens and receive buffers, so GM's own flow control is exercised), and how
 * {@code btl/gm} declines by default.
 */
class GmJobsTest {
    private static final List<String> GM = List.of("--mca", "btl", "self,gm", "--mca", "btl_gm_device", "emulated",
            "--mca", "btl_gm_send_tokens", "8", "--mca", "btl_gm_small_buffers", "4", "--mca", "btl_gm_large_buffers", "2");

    @TempDir
    Path home;

    @ParameterizedTest(name = "{1} on {0} ranks")
    @CsvSource({
        "2, MixedSizesPair,     ''",
        "4, Wildcards,          ''",
        "3, UnexpectedAndProbe, ''",
        "2, Nonblocking,        ''",
        "4, Semantics,          ''",
        "3, BadInput,           ''",
        "5, Collectives,        ''",
        "6, RandomStress,       2000",
        "8, OneAllreduce,       100000",
    })
    void theProgramPassesOverTheEmulatedGmNic(int np, String program, String argument) {
        String[] args = argument.isEmpty() ? new String[0] : new String[] {argument};
        Jmca.Result result = new Jmca(home).mpirun(np, program, GM, args);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.out()).contains("PASS");
    }

    /** GM has directed sends (PUT) but no GET: every rendezvous into a direct buffer is written by the sender. */
    @Test
    void rendezvousIntoNativeMemoryIsWrittenByDirectedSends() {
        Jmca.Result result = new Jmca(home).mpirun(2, "MixedSizesPair", GM);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).contains("rank 0 rendezvous rget=0 rput=20", "rank 1 rendezvous rget=0 rput=0");
    }

    @Test
    void byDefaultTheComponentDeclinesNamingTheEmulatedNic() {
        Jmca.Result result = new Jmca(home).run("jmca-info");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("btl/gm +\\S+ +not available: no Myrinet GM library \\(libgm.so.0\\)"
                + " on this machine; btl_gm_device=emulated runs the emulated GM NIC instead");
    }
}
