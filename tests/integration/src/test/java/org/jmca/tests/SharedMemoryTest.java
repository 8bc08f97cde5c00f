package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** btl/sm through real jobs: the point-to-point programs, a long ring stress, cleanup, isolation. */
class SharedMemoryTest {
    private static final List<String> SM = List.of("--mca", "btl", "self,sm");
    private static final Path SHM = Path.of("/dev/shm");

    @TempDir
    Path home;

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"MixedSizesPair, 2, mixed sizes", "Wildcards, 4, wildcards", "UnexpectedAndProbe, 3, unexpected messages",
        "Nonblocking, 2, non-blocking requests", "Semantics, 4, semantics", "BadInput, 3, bad input"})
    void thePointToPointProgramsPassOverSharedMemory(String program, int np, String pass) {
        Jmca.Result result = new Jmca(home).mpirun(np, program, SM);
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("PASS " + pass);
    }

    @Test
    void aMillionMessagesRoundTheRingArriveIntact() {
        Jmca.Result result = new Jmca(home).mpirun(2, "RingStress", SM, "1000000");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS ring stress")).hasSize(2);
    }

    @Test
    void largeDirectBufferMessagesGoBySingleCopyIntact() {
        List<String> flags = List.of("--mca", "btl", "self,sm", "--mca", "btl_sm_single_copy_min", "64k");
        Jmca.Result result = new Jmca(home).mpirun(2, "RingStress", flags, "30000");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS ring stress")).hasSize(2);
        assertThat(result.err()).doesNotContain("WARNING");
    }

    @Test
    void localPeersUseSharedMemoryEvenWhenTcpIsSelectedToo() {
        Jmca.Result result = new Jmca(home).mpirun(2, "MixedSizesPair",
                List.of("--mca", "btl", "self,sm,tcp", "--mca", "pml_ob1_verbose", "1"));
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.err()).contains("pml/ob1: rank 0 reaches rank 1 through btl/sm",
                "pml/ob1: rank 1 reaches rank 0 through btl/sm", "pml/ob1: rank 0 reaches rank 0 through btl/self");
    }

    /** The job's segments {@code pid} has mapped whose files are removed. */
    private static long smMappings(long pid) {
        return LiveJob.maps(pid).stream().filter(l -> l.matches(".*/jmca-[^/]*\\.sm\\.[012] \\(deleted\\)"))
                .map(l -> l.substring(l.indexOf('/'))).distinct().count();
    }

    private static Set<Path> jobDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(SHM)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("jmca-")).collect(Collectors.toSet());
        }
    }

    @Test
    void aRankKilledMidTransferLeavesNoSegmentBehind() throws Exception {
        Set<Path> before = jobDirectories();
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np", "3"));
        command.addAll(SM);
        command.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", "stream"));
        try (LiveJob job = new LiveJob(new Jmca(home).start(command))) {
            List<String> pids = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 3, "pids");
            long mapper = Long.parseLong(pids.stream().filter(l -> l.startsWith("rank 1 ")).findFirst().orElseThrow()
                    .split(" ")[3]);
            LiveJob.until(() -> smMappings(mapper) == 3, () -> "rank 1 never had the 3 segments mapped and removed");
            Set<Path> during = jobDirectories();
            during.removeAll(before);
            assertThat(during).as("the job's session directory").hasSize(1);
            long victim = Long.parseLong(pids.stream().filter(l -> l.startsWith("rank 1 ")).findFirst().orElseThrow()
                    .split(" ")[3]);
            // once every peer has mapped a segment its file is removed: it lives on in the mappings only
            try (Stream<Path> segments = Files.list(during.iterator().next())) {
                assertThat(segments.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains(".sm."));
            }
            assertThat(smMappings(victim)).as("rank 1's mappings of the removed segments").isEqualTo(3);
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();
            assertThat(job.waitFor(30)).isEqualTo(137);
            assertThat(String.join("\n", job.err)).contains("rank 1 (pid " + victim + ") was killed by signal 9");
        }
        assertThat(jobDirectories()).isEqualTo(before);
    }

    @Test
    void twoJobsAtOnceEachSeeOnlyTheirOwnSegments() throws Exception {
        Jmca jmca = new Jmca(home);
        // threads of their own: the common pool has one thread on 2 cores, which ran the jobs one after the other
        try (ExecutorService both = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Jmca.Result> first = both.submit(() -> jmca.mpirun(2, "RandomStress", SM, "3000"));
            Future<Jmca.Result> second = both.submit(() -> jmca.mpirun(2, "RandomStress", SM, "3000"));
            for (Jmca.Result result : List.of(first.get(), second.get())) {
                assertThat(result.status()).as(result.err()).isZero();
                assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS random stress")).hasSize(2);
            }
        }
    }
}
