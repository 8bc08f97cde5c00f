package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * coll/sm through bin/jmpirun: it serves the collectives of a one-host job, processes or thread
 * ranks; hands larger calls to coll/tuned and says why; and a rank killed inside a collective ends
 * the job, naming it, with nothing left in /dev/shm.
 */
class CollSmTest {
    private static final Path SHM = Path.of("/dev/shm");

    @TempDir
    Path home;

    @ParameterizedTest(name = "{0} ranks as {1}")
    @CsvSource({"4, processes", "3, threads", "2, processes"})
    void everyCollectiveOfTheApiPassesWithCollSmServingIt(int np, String ranksAs) {
        Jmca.Result result = new Jmca(home).mpirun(np, "Collectives", List.of("--ranks-as", ranksAs,
                "--mca", "coll_base_verbose", "1"), "1000");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS collectives")).hasSize(np);
        for (String function : List.of("allreduce", "alltoall", "barrier", "bcast", "exscan", "reduce_scatter_block")) {
            assertThat(result.err()).contains("MPI_COMM_WORLD: coll: " + function + ": sm (flat on shared memory");
        }
    }

    @Test
    void aCallAboveTheSlotGoesToTunedAndTheVerboseReportSaysWhy() {
        Jmca.Result result = new Jmca(home).mpirun(4, "OneAllreduce", List.of("--mca", "coll_base_verbose", "2",
                "--mca", "coll_sm_slot_size", "1k"), "1000");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.err()).contains("coll:sm: allreduce of 4000 B on 4 ranks: coll/tuned serves it (4000 B in a"
                + " rank's slot, above coll_sm_slot_size=1024)", "coll:tuned: allreduce of 4000 B on 4 ranks");
        Jmca.Result small = new Jmca(home).mpirun(4, "OneAllreduce", List.of("--mca", "coll_base_verbose", "2"), "10");
        assertThat(small.err()).contains("coll:sm: allreduce of 40 B on 4 ranks: flat on shared memory (in the flags'"
                + " lines)").doesNotContain("coll:tuned: allreduce");
    }

    @Test
    void aSlotSizeThatIsNotAMultipleOfTheBlockStopsTheJobNamingIt() {
        Jmca.Result result = new Jmca(home).mpirun(2, "OneAllreduce", List.of("--mca", "coll_sm_slot_size", "1000"),
                "10");
        assertThat(result.status()).isNotZero();
        assertThat(result.err()).contains("coll_sm_slot_size=1000 (command line", "multiple of 128");
    }

    private static Set<Path> jobDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(SHM)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("jmca-")).collect(Collectors.toSet());
        }
    }

    @Test
    void aRankKilledInsideACollectiveEndsTheJobNamingItAndLeavesNothingBehind() throws Exception {
        Set<Path> before = jobDirectories();
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np", "3",
                "-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", "collectives"));
        try (LiveJob job = new LiveJob(new Jmca(home).start(command))) {
            List<String> pids = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 3, "pids");
            long victim = Long.parseLong(pids.stream().filter(l -> l.startsWith("rank 1 ")).findFirst().orElseThrow()
                    .split(" ")[3]);
            // rank 1 maps MPI_COMM_WORLD's segment, whose file goes once every rank has it mapped
            LiveJob.until(() -> LiveJob.maps(victim).stream().anyMatch(l -> l.contains(".collsm.") && l.endsWith("(deleted)")),
                    () -> "rank 1 never had MPI_COMM_WORLD's segment mapped and its file removed: " + LiveJob.maps(victim));
            Set<Path> during = jobDirectories();
            during.removeAll(before);
            assertThat(during).as("the job's session directory").hasSize(1);
            try (Stream<Path> files = Files.list(during.iterator().next())) {
                assertThat(files.map(p -> p.getFileName().toString())).as("files once every rank mapped them")
                        .noneMatch(name -> name.contains(".collsm."));
            }
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();
            assertThat(job.waitFor(30)).isEqualTo(137);
            assertThat(String.join("\n", job.err)).contains("rank 1 (pid " + victim + ") was killed by signal 9");
        }
        assertThat(jobDirectories()).isEqualTo(before);
    }
}
