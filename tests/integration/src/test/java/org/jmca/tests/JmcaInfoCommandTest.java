package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/jmca-info as a user runs it. */
class JmcaInfoCommandTest {
    private static final String SPIN = "progress_polling_spin_count";

    @TempDir
    Path home;

    private Jmca jmca() {
        return new Jmca(home);
    }

    @Test
    void listsEveryFrameworkWithItsComponentsAndStatuses() {
        Jmca.Result result = jmca().run("jmca-info");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("Framework btl (multi-select)", "Framework pml (single-select)",
                "Framework coll (per-communicator)", "Framework progress (single-select)");
        assertThat(result.out()).containsPattern("progress/polling +\\S+ +selected \\(priority 10\\)");
    }

    @Test
    void theVerbsTransportIsDeclinedWithItsReasonOnAMachineWithoutAnRdmaDevice() throws IOException {
        Path devices = Path.of("/sys/class/infiniband");
        if (Files.isDirectory(devices)) {
            try (Stream<Path> list = Files.list(devices)) {
                assumeTrue(list.findAny().isEmpty(), "this machine has an RDMA device");
            }
        }
        Jmca.Result result = jmca().run("jmca-info");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern(
                "btl/verbs +\\S+ +not available: no RDMA device: /sys/class/infiniband lists none");

        Jmca.Result named = jmca().run("jmca-info", "--mca", "btl", "self,verbs");
        assertThat(named.err()).contains("btl/verbs was asked for (btl=self,verbs, command line --mca btl) but cannot"
                + " run here: ");
        assertThat(result.out()).contains("btl_verbs_device=soft runs the software verbs device instead");

        Jmca.Result soft = jmca().run("jmca-info", "--mca", "btl_verbs_device", "soft");
        assertThat(soft.status()).as(soft.err()).isZero();
        assertThat(soft.out()).containsPattern("btl/verbs +\\S+ +selected");
    }

    @Test
    void pvarsListsTheCountersOfEveryComponentBeforeAnyJobRuns() {
        Jmca.Result result = jmca().run("jmca-info", "--pvars");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("Performance variables (read in a job with MPI.performanceVariables()):");
        assertThat(result.out()).containsPattern("btl_verbs_tear_downs +\\[btl/verbs\\] connections torn down \\(ACTS\\)");
        assertThat(result.out()).containsPattern("btl_verbs_reg_cache_hits +\\[btl/verbs\\] registrations found");
        assertThat(result.out()).containsPattern("pml_ob1_rput +\\[pml/ob1\\] ");
    }

    @Test
    void parsableOutputHoldsMachineReadableLinesOnly() {
        Jmca.Result result = jmca().withExamplePlugin().run("jmca-info", "--all", "--level", "9", "--parsable");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).isNotEmpty()
                .allMatch(line -> line.matches("mca:[a-z]+:[a-z0-9_]+:[a-z_]+:.*"), "mca:FW:COMP:FIELD:... lines");
        assertThat(result.outLines()).contains(
                "mca:btl:verbs:pvar:btl_verbs_tear_downs:description:connections torn down (ACTS)",
                "mca:progress:polling:status:selected",
                "mca:progress:polling:param:progress_polling_wait_strategy:value:auto",
                "mca:progress:polling:param:progress_polling_wait_strategy:source:default",
                "mca:progress:polling:param:progress_polling_wait_strategy:type:enum",
                "mca:progress:polling:param:progress_polling_wait_strategy:enumerator:value:3:spin_park",
                "mca:btl:base:param:btl:level:2");
        assertThat(result.outLines()).anyMatch(l -> l.startsWith("mca:progress:polling:param:" + SPIN + ":help:Empty"));
    }

    @Test
    void anUnknownComponentOnTheCommandLineFailsListingTheAvailableOnes() {
        Jmca.Result result = jmca().withExamplePlugin().run("jmca-info", "--mca", "btl", "nonexistent");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("btl=nonexistent (command line --mca btl): framework btl has no component"
                + " named 'nonexistent'; available btl components: example");
    }

    @Test
    void anUnknownExcludedComponentInTheEnvironmentFailsToo() {
        Jmca.Result result = jmca().withExamplePlugin().env("JMCA_MCA_btl", "^nonexistent").run("jmca-info");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("btl=^nonexistent (environment JMCA_MCA_btl)")
                .contains("available btl components: example");
    }

    @Test
    void aCaretInsideTheListIsRejectedWithWhereItMayStand() {
        Jmca.Result result = jmca().run("jmca-info", "--mca", "btl", "self,^tcp");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("btl=self,^tcp (command line --mca btl): '^' may stand only at the start");
    }

    @Test
    void theWholePrecedenceChainFromSystemFileToCommandLine() throws IOException {
        Path systemFile = home.resolve("jmca-home/etc/mca-params.conf");
        Path userFile = home.resolve(".jmca/mca-params.conf");
        Path tuneFile = home.resolve("tune.conf");
        Files.createDirectories(systemFile.getParent());
        Files.writeString(systemFile, SPIN + " = 11\n");
        assertThat(valueAndSource(jmca())).containsExactly("11", "system file " + systemFile + ":1");

        Files.createDirectories(userFile.getParent());
        Files.writeString(userFile, "# mine\n" + SPIN + " = 22\n");
        assertThat(valueAndSource(jmca())).containsExactly("22", "user file " + userFile + ":2");

        Files.writeString(tuneFile, "progress.polling {\n  spin_count = 33\n}\n");
        assertThat(valueAndSource(jmca(), "--tune", tuneFile.toString()))
                .containsExactly("33", "--tune file " + tuneFile + ":2");

        Jmca withEnv = jmca().env("JMCA_MCA_" + SPIN, "44");
        assertThat(valueAndSource(withEnv, "--tune", tuneFile.toString()))
                .containsExactly("44", "environment JMCA_MCA_" + SPIN);

        assertThat(valueAndSource(withEnv, "--tune", tuneFile.toString(), "--mca", SPIN, "55"))
                .containsExactly("55", "command line --mca " + SPIN);
    }

    private static List<String> valueAndSource(Jmca jmca, String... flags) {
        String[] args = Stream.concat(Stream.of(flags),
                Stream.of("--param", "progress", "polling", "--level", "9", "--parsable")).toArray(String[]::new);
        Jmca.Result result = jmca.run("jmca-info", args);
        assertThat(result.status()).as(result.err()).isZero();
        String prefix = "mca:progress:polling:param:" + SPIN + ":";
        return Stream.of("value:", "source:")
                .map(field -> result.outLines().stream().filter(l -> l.startsWith(prefix + field))
                        .map(l -> l.substring((prefix + field).length()))
                        .collect(Collectors.joining("|")))
                .toList();
    }

    @Test
    void anUnknownParameterWarnsWithTheClosestName() {
        Jmca.Result result = jmca().run("jmca-info", "--mca", "progress_polling_spin_cont", "5");
        assertThat(result.status()).isZero();
        assertThat(result.err()).contains("warning: unknown MCA parameter 'progress_polling_spin_cont'"
                + " (command line --mca progress_polling_spin_cont); did you mean '" + SPIN + "'?");
    }

    @Test
    void aValueOfTheWrongTypeFailsNamingParameterSourceAndType() throws IOException {
        Path userFile = home.resolve(".jmca/mca-params.conf");
        Files.createDirectories(userFile.getParent());
        Files.writeString(userFile, "\n\n" + SPIN + " = many\n");
        Jmca.Result result = jmca().run("jmca-info");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("parameter " + SPIN + " from user file " + userFile + ":3: 'many' is not"
                + " an integer (type long)");
    }

    @Test
    void aMalformedTuneFileFailsWithItsFileAndLine() throws IOException {
        Path tuneFile = home.resolve("bad.conf");
        Files.writeString(tuneFile, "btl = self\nbtl_tcp {\n  eager_limit = 64k\n");
        Jmca.Result result = jmca().run("jmca-info", "--tune", tuneFile.toString());
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("--tune file " + tuneFile + ":");
    }
}
