package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmca.launch.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Collectives through bin/jmpirun: every function of the mpi API checked by the program itself,
 * and each path of coll/tuned's decision (forced parameter, classic rules file, HOCON table,
 * fixed rules) asserted from the verbose report of the algorithm that ran.
 */
class CollectivesTest {

    @TempDir
    Path home;

    private Jmca.Result run(int np, String program, List<String> flags, String... args) {
        return new Jmca(home).mpirun(np, program, flags, args);
    }

    private static void assertPassed(Jmca.Result result, int np, String pass) {
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS " + pass)).hasSize(np);
    }

    @ParameterizedTest(name = "{0} ranks, coll={1}, btl={2}")
    @CsvSource({"3, '', ''", "3, '', 'self,tcp'", "1, '', ''"}) // every component alone: CollContractTest
    void everyCollectiveGivesTheResultsTheRanksComputeAlone(int np, String coll, String btl) {
        List<String> flags = new ArrayList<>();
        if (!coll.isEmpty()) {
            flags.addAll(List.of("--mca", "coll", coll));
        }
        if (!btl.isEmpty()) {
            flags.addAll(List.of("--mca", "btl", btl));
        }
        assertPassed(run(np, "Collectives", flags, "100000"), np, "collectives");
    }

    /** The allreduce decisions coll/tuned reports at rank 0 at coll_base_verbose 2. */
    private static List<String> allreduceDecisions(Jmca.Result result) {
        return result.err().lines().filter(l -> l.startsWith("jmca: rank 0:") && l.contains("coll:tuned: allreduce of"))
                .toList();
    }

    /**
     * Flags for a job whose collectives coll/tuned serves on one host: coll/sm, above it, is left
     * out (what a user forcing tuned's algorithms there does too).
     */
    private static List<String> tunedOnly(String... flags) {
        List<String> all = new ArrayList<>(List.of("--mca", "coll", "^sm"));
        all.addAll(List.of(flags));
        return all;
    }

    @Test
    void aForcedAlgorithmRunsWhateverTheRulesSay() {
        Jmca.Result result = run(4, "OneAllreduce", tunedOnly("--mca", "coll_base_verbose", "2",
                "--mca", "coll_tuned_allreduce_algorithm", "ring"), "1000");
        assertPassed(result, 4, "allreduce");
        assertThat(allreduceDecisions(result)).singleElement().asString()
                .contains("algorithm 4 (ring)", "forced by coll_tuned_allreduce_algorithm (command line");
    }

    @Test
    void aForcedAlgorithmThatCannotServeTheCallGivesWayToTheFixedRulesAndSaysWhy() {
        Jmca.Result result = run(3, "OneAllreduce", tunedOnly("--mca", "coll_base_verbose", "2",
                "--mca", "coll_tuned_barrier_algorithm", "two_proc", "--mca", "coll_tuned_allreduce_algorithm", "6"),
                "10");
        assertPassed(result, 3, "allreduce");
        assertThat(allreduceDecisions(result)).singleElement().asString().contains("algorithm 6 (rabenseifner)");
        assertThat(result.err()).contains("forced 5 (two_proc) passed over: two_proc needs exactly 2 ranks");
    }

    @Test
    void aClassicRulesFileChoosesByCommunicatorAndMessageSize() throws IOException {
        Path rules = home.resolve("tuning.rules");
        Files.writeString(rules, """
                rule-file-version-2
                1            # one collective
                2            # allreduce
                2            # two communicator sizes
                2            # from 2 ranks
                1
                0 5 0 0 0    # every size: segmented ring
                4            # from 4 ranks
                2
                0 3 0 0 0    # small: recursive doubling
                4096 2 0 0 0 # from 4 KiB: nonoverlapping
                """);
        List<String> flags = tunedOnly("--mca", "coll_base_verbose", "2", "--mca", "coll_tuned_dynamic_rules_filename",
                rules.toString());
        Jmca.Result small = run(4, "OneAllreduce", flags, "10");
        assertPassed(small, 4, "allreduce");
        assertThat(allreduceDecisions(small)).singleElement().asString()
                .contains("algorithm 3 (recursive_doubling)", "rules file " + rules + ":10");
        Jmca.Result large = run(4, "OneAllreduce", flags, "2000");
        assertThat(allreduceDecisions(large)).singleElement().asString()
                .contains("algorithm 2 (nonoverlapping)", rules + ":11");
        Jmca.Result three = run(3, "OneAllreduce", flags, "2000");
        assertThat(allreduceDecisions(three)).singleElement().asString()
                .contains("algorithm 5 (segmented_ring)", rules + ":7");
    }

    @Test
    void aHoconTableNamesAlgorithms() throws IOException {
        Path rules = home.resolve("tuning.conf");
        Files.writeString(rules, """
                # JMCA reads Open MPI's JSON rules, and HOCON with comments
                rule_file_version = 3
                module = tuned
                collectives {
                  allreduce = [
                    { comm_size_min = 2, rules = [
                        { msg_size_min = 0, msg_size_max = 1k, alg = basic_linear }
                        { msg_size_min = 1025, alg = ring }
                    ] }
                  ]
                }
                """);
        Jmca.Result result = run(4, "OneAllreduce", tunedOnly("--mca", "coll_base_verbose", "2",
                "--mca", "coll_tuned_dynamic_rules_filename", rules.toString()), "100");
        assertPassed(result, 4, "allreduce");
        assertThat(allreduceDecisions(result)).singleElement().asString()
                .contains("algorithm 1 (basic_linear)", "rules file " + rules + ":7");
    }

    @Test
    void withoutParametersOrTablesTheFixedRulesDecide() {
        Jmca.Result result = run(4, "OneAllreduce", List.of("--mca", "coll_base_verbose", "2"), "100000");
        assertPassed(result, 4, "allreduce");
        assertThat(allreduceDecisions(result)).singleElement().asString()
                .contains("algorithm 6 (rabenseifner)", "fixed rules: large messages, 4 ranks");
    }

    @Test
    void aMalformedRulesFileStopsTheJobWithFileAndLine() throws IOException {
        Path rules = home.resolve("broken.rules");
        Files.writeString(rules, "1\n2\n1\n4\n1\n0 17 0 0\n");
        Jmca.Result result = run(2, "OneAllreduce", List.of("--mca", "coll_tuned_dynamic_rules_filename",
                rules.toString()), "10");
        assertThat(result.status()).isNotZero();
        assertThat(result.err()).contains(rules + ":6").contains("17");
        assertThat(result.out()).doesNotContain("PASS");
    }

    @Test
    void theVerboseReportNamesTheComponentOfEachFunction() {
        Jmca.Result result = run(2, "OneAllreduce", List.of("--mca", "coll_base_verbose", "1"), "10");
        assertPassed(result, 2, "allreduce");
        assertThat(result.err()).contains(
                "MPI_COMM_WORLD: coll: allreduce: sm (flat on shared memory up to 32768 B, else coll/tuned)",
                "MPI_COMM_WORLD: coll: allgatherv: tuned (fixed rules)",
                "MPI_COMM_WORLD: coll: gatherv: basic (linear: linear)",
                "MPI_COMM_SELF: coll: allreduce: self (local copy)",
                "coll/self: declined: serves communicators of one process only; this one has 2");
    }

    @Test
    void aCommunicatorPreferenceChoosesComponentsAndRejectsUnknownNames() {
        Jmca.Result preferBasic = run(2, "OneAllreduce", List.of("--mca", "coll_base_verbose", "1"), "10", "basic");
        assertPassed(preferBasic, 2, "allreduce");
        assertThat(preferBasic.err()).contains("MPI_COMM_WORLD's dup: coll: allreduce: basic");
        Jmca.Result unknown = run(2, "OneAllreduce", List.of(), "10", "fancy,^tuned");
        assertThat(unknown.status()).isNotZero();
        assertThat(unknown.err()).contains("names coll/fancy, which is not among the selected coll components");
    }

    @Test
    void aThirdPartyComponentOnTheClassPathWinsAllreduceAndLeavesTheRestToTuned() {
        Jmca.Result with = new Jmca(home).withExampleCollPlugin().mpirun(4, "OneAllreduce",
                List.of("--mca", "coll_base_verbose", "2"), "100");
        assertPassed(with, 4, "allreduce");
        assertThat(with.err()).contains("MPI_COMM_WORLD: coll: allreduce: gatherall (gather-reduce-send",
                "MPI_COMM_WORLD: coll: bcast: sm", "coll:gatherall: allreduce of 400 B");
        Jmca.Result without = run(4, "OneAllreduce", List.of("--mca", "coll_base_verbose", "2"), "100");
        assertPassed(without, 4, "allreduce");
        assertThat(without.err()).contains("MPI_COMM_WORLD: coll: allreduce: sm").doesNotContain("gatherall");
        Jmca.Result small = new Jmca(home).withExampleCollPlugin().mpirun(2, "OneAllreduce",
                List.of("--mca", "coll_base_verbose", "1"), "100");
        assertPassed(small, 2, "allreduce");
        assertThat(small.err()).contains("coll/gatherall: declined: communicator smaller than coll_gatherall_min_size=4");
    }

    @Test
    void jmcaInfoValidatesARulesTableAndPrintsTheDecisionItImplies() throws IOException {
        Path rules = home.resolve("check.rules");
        Files.writeString(rules, "1\n7   # bcast\n1\n2\n2\n0 6 0 0\n8192 3 0 65536\n");
        Jmca.Result decision = new Jmca(home).run("jmca-info", "--coll-rules", rules.toString(), "--comm-size", "16",
                "--msg-size", "64k");
        assertThat(decision.status()).as(decision.err()).isZero();
        assertThat(decision.out()).contains("bcast", "algorithm 3 (pipeline)", "segment size 65536", rules + ":7");
        Files.writeString(rules, "1\n7\n1\n2\n2\n0 6 0 0\n8192 12 0 65536\n");
        Jmca.Result broken = new Jmca(home).run("jmca-info", "--coll-rules", rules.toString());
        assertThat(broken.status()).isEqualTo(1);
        assertThat(broken.err()).contains(rules + ":7:", "found 12", "9 scatter_allgather_ring");
    }

    @Test
    void jmcaInfoShowsWhichComponentServesEachFunctionOfACommunicator() {
        Jmca.Result result = new Jmca(home).run("jmca-info", "--coll-comm-size", "1");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("Collectives on a communicator of 1 rank:", "allreduce: self (local copy)",
                "coll/tuned: declined: serves communicators of 2 ranks or more");
        Jmca.Result eight = new Jmca(home).run("jmca-info", "--coll-comm-size", "8");
        assertThat(eight.out()).contains("bcast: sm (flat on shared memory up to 32768 B, else coll/tuned)",
                "allgatherv: tuned (fixed rules)", "scatterv: basic");
        Jmca.Result forced = new Jmca(home).run("jmca-info", "--coll-comm-size", "8", "--mca", "coll", "^sm",
                "--mca", "coll_tuned_bcast_algorithm", "knomial");
        assertThat(forced.out()).contains("bcast: tuned (forced 7 (knomial) by coll_tuned_bcast_algorithm",
                "scatterv: basic");
    }

    /** Open MPI's algorithms of each collective tuned serves, by number (two_proc runs on 2 ranks only). */
    private static final Map<String, List<String>> ALGORITHMS = Map.ofEntries(
            Map.entry("allgather", List.of("linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc",
                    "sparbit")),
            Map.entry("allgatherv", List.of("default", "bruck", "ring", "neighbor", "two_proc", "sparbit")),
            Map.entry("allreduce", List.of("basic_linear", "nonoverlapping", "recursive_doubling", "ring",
                    "segmented_ring", "rabenseifner")),
            Map.entry("alltoall", List.of("linear", "pairwise", "modified_bruck", "linear_sync", "two_proc")),
            Map.entry("alltoallv", List.of("basic_linear", "pairwise")),
            Map.entry("barrier", List.of("linear", "double_ring", "recursive_doubling", "bruck", "two_proc", "tree")),
            Map.entry("bcast", List.of("basic_linear", "chain", "pipeline", "split_binary_tree", "binary_tree",
                    "binomial", "knomial", "scatter_allgather", "scatter_allgather_ring")),
            Map.entry("exscan", List.of("linear", "recursive_doubling")),
            Map.entry("gather", List.of("basic_linear", "binomial", "linear_sync")),
            Map.entry("reduce", List.of("linear", "chain", "pipeline", "binary", "binomial", "in-order_binary",
                    "rabenseifner")),
            Map.entry("reduce_scatter", List.of("non-overlapping", "recursive_halving", "ring", "butterfly")),
            Map.entry("reduce_scatter_block", List.of("basic_linear", "recursive_doubling", "recursive_halving",
                    "butterfly")),
            Map.entry("scan", List.of("linear", "recursive_doubling")),
            Map.entry("scatter", List.of("basic_linear", "binomial", "linear_nb")));

    /**
     * Every algorithm: job k forces algorithm k of every collective that has one (with small
     * segments, so the pipelines cut messages), runs every collective of the API, checks the
     * results, and the verbose report shows each forced algorithm ran. The ranks are threads of
     * this JVM (the algorithms are the point, not the processes: a job takes a fraction of a second).
     */
    @ParameterizedTest(name = "algorithm {0} of every collective on {1} ranks")
    @CsvSource({"1, 3", "2, 3", "3, 3", "4, 3", "5, 3", "6, 3", "7, 3", "8, 3", "9, 3",
            "1, 4", "2, 4", "3, 4", "4, 4", "5, 4", "6, 4", "7, 4", "8, 4", "9, 4"})
    void everyForcedAlgorithmGivesTheRightResults(int k, int np) throws Exception {
        MpiJob.Builder job = MpiJob.threads(np).classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0")
                .mca("coll_base_verbose", "2").mca("coll", "^sm");
        Map<String, String> expected = new java.util.TreeMap<>();
        ALGORITHMS.forEach((coll, names) -> {
            if (k <= names.size()) {
                job.mca("coll_tuned_" + coll + "_algorithm", String.valueOf(k))
                        .mca("coll_tuned_" + coll + "_algorithm_segmentsize", "4k");
                if (!names.get(k - 1).equals("two_proc")) {
                    expected.put(coll, " B on " + np + " ranks: algorithm " + k + " (" + names.get(k - 1) + ") [forced by");
                }
            }
        });
        MpiJob.Result result = job.main("org.jmca.tests.programs.Collectives", "20000").start()
                .waitFor(Duration.ofMinutes(2));
        for (int rank = 0; rank < np; rank++) {
            assertThat(result.stdout(rank)).anyMatch(l -> l.startsWith("PASS collectives"));
        }
        List<String> decisions = result.stderr(0).stream().filter(l -> l.startsWith("jmca: rank 0:")).toList();
        expected.forEach((coll, decision) -> assertThat(decisions)
                .as("%s ran algorithm %d", coll, k)
                .anyMatch(l -> l.contains("coll:tuned: " + coll + " of ") && l.contains(decision)));
    }
}
