package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The point-to-point and collective programs over {@code --mca btl self,lapi} on the emulated
 * LAPI switch, in each dispatcher mode, and over the switch's TCP wire; how btl/lapi declines by
 * default.
 */
class LapiJobsTest {

    @TempDir
    Path home;

    private static List<String> lapi(String mode, String wire) {
        return new ArrayList<>(List.of("--mca", "btl", "self,lapi", "--mca", "btl_lapi_device", "emulated",
                "--mca", "btl_lapi_mode", mode, "--mca", "btl_lapi_wire", wire));
    }

    private void passes(int np, String program, List<String> flags, String argument, int passes) {
        String[] args = argument.isEmpty() ? new String[0] : new String[] {argument};
        Jmca.Result result = new Jmca(home).mpirun(np, program, flags, args);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(passes);
    }

    /**
     * The programs in polling mode; in the interrupt and lockfree modes, those whose traffic the
     * dispatcher's mode changes (Nonblocking's requests are the polling run's). Wildcards, UnexpectedAndProbe and BadInput test pml/ob1's matching
     * and argument checks, the same whatever carries the messages: they run over sm and tcp
     * (PointToPointJobsTest).
     */
    @ParameterizedTest(name = "{1} on {0} ranks in {3} mode")
    @CsvSource({
        "2, MixedSizesPair,     '',     polling,   1",
        "2, Nonblocking,        '',     polling,   1",
        "4, Semantics,          '',     polling,   1",
        "5, Collectives,        '',     polling,   5",
        "6, RandomStress,       2000,   polling,   6",
        "8, OneAllreduce,       100000, polling,   8",
        "2, MixedSizesPair,     '',     interrupt, 1",
        "4, Semantics,          '',     interrupt, 1",
        "5, Collectives,        '',     interrupt, 5",
        "4, RandomStress,       2000,   interrupt, 4",
        "2, MixedSizesPair,     '',     lockfree,  1",
        "4, Semantics,          '',     lockfree,  1",
        "5, Collectives,        '',     lockfree,  5",
        "4, RandomStress,       2000,   lockfree,  4",
    })
    void theProgramPassesOverLapi(int np, String program, String argument, String mode, int passes) {
        passes(np, program, lapi(mode, "auto"), argument, passes);
    }

    /** Every task reached over the switch's TCP wire, as tasks on other hosts are. */
    @ParameterizedTest(name = "{1} on {0} ranks over the wire in {3} mode")
    @CsvSource({"2, MixedSizesPair, '', polling, 1", "4, Collectives, 20000, interrupt, 4",
        "4, Semantics, '', lockfree, 1"})
    void theProgramsPassWithEveryTaskReachedOverTheWire(int np, String program, String argument, String mode,
                                                        int passes) {
        passes(np, program, lapi(mode, "socket"), argument, passes);
    }

    /** LAPI has put and get: a rendezvous into native memory is read by the receiver (RGET). */
    @Test
    void rendezvousIntoNativeMemoryIsReadWithLapiGet() {
        Jmca.Result result = new Jmca(home).mpirun(2, "MixedSizesPair", lapi("polling", "auto"));
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).anyMatch(l -> l.matches("rank 1 rendezvous rget=[1-9]\\d* rput=\\d+"));
    }

    @Test
    void byDefaultTheComponentDeclinesNamingTheEmulatedSwitch() {
        Jmca.Result result = new Jmca(home).run("jmca-info");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("btl/lapi +\\S+ +not available: no IBM LAPI library \\(liblapi_r.so\\)"
                + " on this machine; btl_lapi_device=emulated runs LAPI on the emulated switch instead");
    }

    @Test
    void aBadModeStopsTheJobNamingTheParameterAndItsSource() {
        Jmca.Result result = new Jmca(home).mpirun(2, "MixedSizesPair", List.of("--mca", "btl", "self,lapi",
                "--mca", "btl_lapi_device", "emulated", "--mca", "btl_lapi_mode", "sometimes"));
        assertThat(result.status()).isNotZero();
        assertThat(result.err()).contains("btl_lapi_mode", "sometimes", "polling", "interrupt", "lockfree");
    }
}
