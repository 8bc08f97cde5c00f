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
 * {@code btl/gm} declines by default; coll/gm forced over it, its selection map replaced and
 * broken, and how it declines without btl/gm.
 */
class GmJobsTest {
    private static final List<String> GM = List.of("--mca", "btl", "self,gm", "--mca", "btl_gm_device", "emulated",
            "--mca", "btl_gm_send_tokens", "8", "--mca", "btl_gm_small_buffers", "4", "--mca", "btl_gm_large_buffers", "2");

    @TempDir
    Path home;

    /**
     * The programs whose traffic GM's flow control shapes. Wildcards, UnexpectedAndProbe,
     * Nonblocking and BadInput test pml/ob1's matching, requests and argument checks, the same
     * whatever carries the messages: they run over sm and tcp (PointToPointJobsTest).
     */
    @ParameterizedTest(name = "{1} on {0} ranks")
    @CsvSource({
        "2, MixedSizesPair,     ''",
        "4, Semantics,          ''",
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

    private static List<String> collGm(String... more) {
        List<String> flags = new java.util.ArrayList<>(GM);
        flags.addAll(List.of("--mca", "coll", "gm,self"));
        flags.addAll(List.of(more));
        return flags;
    }

    /**
     * Sizes across every threshold of the shipped map, every root, in place and not, heap and
     * direct (CollContractTest runs coll/gm's contract on 2 and 3 ranks).
     */
    @ParameterizedTest(name = "{0} ranks, counts up to {1}")
    @CsvSource({"2, 100000", "5, 65536"})
    void everyCollectiveOfCollGmGivesTheSequentialResult(int np, String largest) {
        Jmca.Result result = new Jmca(home).mpirun(np, "CollectiveSweep", collGm("--mca", "coll_base_verbose", "1"),
                largest);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS sweep")).hasSize(np);
        assertThat(result.err()).contains("MPI_COMM_WORLD: coll: bcast: gm (selection map",
                "MPI_COMM_WORLD: coll: alltoall: gm (selection map");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "'without forwarding or pipelined registration', coll_gm_forward_from_receive_buffer, false, coll_gm_rdma_pipeline_block, 0",
        "'with two large buffers and a window of 2',     coll_gm_large_buffers,               2,     coll_gm_window,              2",
    })
    void theCollectivesProgramPassesOnCollGm(String name, String p1, String v1, String p2, String v2) {
        Jmca.Result result = new Jmca(home).mpirun(5, "Collectives", collGm("--mca", p1, v1, "--mca", p2, v2),
                "100000");
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS collectives")).hasSize(5);
    }

    /** Every node reached over the emulated NIC's TCP wire, as nodes on other hosts are. */
    @ParameterizedTest(name = "{1} on {0} ranks over the wire")
    @CsvSource({"2, MixedSizesPair, '', 1", "3, CollectiveSweep, 65536, 3",
        "4, Collectives, 20000, 4"})
    void theProgramsPassWithEveryNodeReachedOverTheTcpWire(int np, String program, String argument, int passes) {
        String[] args = argument.isEmpty() ? new String[0] : new String[] {argument};
        Jmca.Result result = new Jmca(home).mpirun(np, program, collGm("--mca", "btl_gm_wire", "socket"), args);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(passes);
    }

    private static List<String> allreduceDecisions(Jmca.Result result) {
        return result.err().lines().filter(l -> l.startsWith("jmca: rank 0:") && l.contains("coll:gm: allreduce of"))
                .toList();
    }

    @Test
    void aUsersSelectionMapChangesTheAlgorithmAndABrokenOneStopsTheJobWithFileAndLine() throws java.io.IOException {
        Jmca.Result shipped = new Jmca(home).mpirun(4, "OneAllreduce", collGm("--mca", "coll_base_verbose", "2"),
                "100");
        assertThat(shipped.status()).as(shipped.err()).isZero();
        assertThat(allreduceDecisions(shipped)).singleElement().asString()
                .contains("allreduce of 400 B on 4 ranks: algorithm recursive_doubling",
                        "[selection map coll/gm's shipped selection map:");
        Path map = home.resolve("gm-map.conf");
        java.nio.file.Files.writeString(map, """
                # a ring for every allreduce
                allreduce = [
                  { alg = ring }
                ]
                """);
        Jmca.Result replaced = new Jmca(home).mpirun(4, "OneAllreduce", collGm("--mca", "coll_base_verbose", "2",
                "--mca", "coll_gm_selection_map", map.toString()), "100");
        assertThat(replaced.status()).as(replaced.err()).isZero();
        assertThat(allreduceDecisions(replaced)).singleElement().asString()
                .contains("algorithm ring [selection map " + map + ":3]");
        java.nio.file.Files.writeString(map, "allreduce = [\n  { alg = ring, segsize = 8k }\n]\n");
        Jmca.Result broken = new Jmca(home).mpirun(2, "OneAllreduce", collGm("--mca", "coll_gm_selection_map",
                map.toString()), "100");
        assertThat(broken.status()).isNotZero();
        assertThat(broken.err()).contains(map + ":2: unknown key 'segsize'");
        assertThat(broken.out()).doesNotContain("PASS");
    }

    @Test
    void jmcaInfoShowsTheSelectionMapInUse() throws java.io.IOException {
        Jmca.Result shipped = new Jmca(home).run("jmca-info", "--tables");
        assertThat(shipped.status()).as(shipped.err()).isZero();
        assertThat(shipped.out()).contains("coll/gm selection map (coll/gm's shipped selection map",
                "  bcast:", "from 2 ranks, from 256k B: pipeline, segment 64k");
        Path map = home.resolve("gm-map.conf");
        java.nio.file.Files.writeString(map, "bcast = [ { alg = chain, fanout = 2, segment = 4k } ]\n");
        Jmca.Result user = new Jmca(home).run("jmca-info", "--tables", "--mca", "coll_gm_selection_map",
                map.toString());
        assertThat(user.status()).as(user.err()).isZero();
        assertThat(user.out()).contains("from 2 ranks, from 0 B: chain, segment 4k, fan-out 2  [" + map + ":1]");
    }

    @Test
    void withoutBtlGmCollGmDeclinesAndSaysWhy() {
        Jmca.Result result = new Jmca(home).mpirun(2, "OneAllreduce", List.of("--mca", "coll_base_verbose", "1"), "10");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.err()).contains("coll/gm: declined: btl/gm is not running in this process",
                "MPI_COMM_WORLD: coll: allreduce: sm");
    }

    @Test
    void byDefaultTheComponentDeclinesNamingTheEmulatedNic() {
        Jmca.Result result = new Jmca(home).run("jmca-info");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("btl/gm +\\S+ +not available: no Myrinet GM library \\(libgm.so.0\\)"
                + " on this machine; btl_gm_device=emulated runs the emulated GM NIC instead");
    }
}
