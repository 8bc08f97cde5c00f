package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI's dynamic processes through the real launcher (issue 20): two jobs started apart meet
 * through a published port (accept and connect), a job spawns another, and a spawn that cannot
 * work fails on every rank with MPI_ERR_SPAWN instead of hanging. The DynamicJobs program checks
 * messages, collectives, merge and disconnect between the jobs.
 */
class DynamicProcessesTest {
    @TempDir
    Path home;

    @Test
    void twoJobsStartedApartConnectThroughAPublishedPort() throws Exception {
        Path names = Files.createDirectories(home.resolve("names"));
        Jmca jmca = new Jmca(home).env("JMCA_NAME_SERVICE_DIR", names.toString());
        String service = "dynamic-test-" + ProcessHandle.current().pid();
        try (LiveJob server = new LiveJob(jmca.start(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np", "2",
                "-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.DynamicJobs", "server", service)))) {
            Jmca.Result client = jmca.mpirun(3, "DynamicJobs", List.of(), "client", service);
            assertThat(client.status()).as("client status; stderr: %s", client.err()).isZero();
            assertThat(client.outLines()).filteredOn(l -> l.startsWith("PASS dynamic client")).hasSize(3);
            assertThat(server.waitFor(60)).as("server status; stderr: %s", server.err).isZero();
            assertThat(server.out).filteredOn(l -> l.startsWith("PASS dynamic server")).hasSize(2);
        }
        try (var left = Files.list(names)) {
            assertThat(left).as("names left published").isEmpty();
        }
    }

    @Test
    void aJobSpawnsAnotherAndTalksToIt() {
        Jmca.Result result = new Jmca(home).mpirun(2, "DynamicJobs", List.of(), "parent", Jmca.PROGRAMS.toString());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS dynamic parent")).hasSize(2);
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS dynamic child")).hasSize(2);
    }

    @Test
    void aSingleProcessSpawnsASingleProcess() {
        Jmca.Result result = new Jmca(home).mpirun(1, "DynamicJobs", List.of(), "parent", Jmca.PROGRAMS.toString(),
                "1");
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS dynamic")).hasSize(2);
    }

    @Test
    void aSpawnThatCannotWorkFailsEverywhereWithErrSpawn() {
        Jmca.Result result = new Jmca(home).mpirun(2, "DynamicJobs", List.of(), "badspawn", Jmca.PROGRAMS.toString());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS dynamic badspawn")).hasSize(2);
        assertThat(result.err()).contains("NoSuchClass");
    }

    /**
     * Issue 33: spawn("java", {CLASS, ...}) as programs for Open MPI's bindings call it, with no
     * class path: the children get the parent's. Once, as several programs (spawnMultiple), in a
     * loop, and finalized without disconnect; from process ranks and from thread ranks.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} from {1}")
    @org.junit.jupiter.params.provider.CsvSource({"once, processes", "multiple, processes", "loop, processes",
            "no-disconnect, processes", "once, threads", "multiple, threads"})
    void aJavaProgramSpawnsChildrenOfItsOwnClassPathAsOpenMpisBindingsDo(String role, String ranksAs) {
        Jmca.Result result = new Jmca(home).mpirun(2, "SpawnedPrograms", List.of("--ranks-as", ranksAs), role);
        assertThat(result.status()).as("status; stdout: %s; stderr: %s", result.out(), result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS spawn " + role + " rank ")).hasSize(2);
    }
}
