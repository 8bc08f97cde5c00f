package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Open MPI's Java API, area by area, through the real launcher (issue 20). */
class JavaApiTest {
    @TempDir
    Path home;

    @Test
    void environmentAttributesNamesInfosGroupsAndRequestsBehaveAsOpenMpisBindings() {
        Jmca.Result result = new Jmca(home).mpirun(3, "ApiEnvironment", java.util.List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS api environment")).hasSize(3);
    }

    @Test
    void derivedDatatypesMoveTheirBytesInPointToPointCollectivesAndPacking() {
        Jmca.Result result = new Jmca(home).mpirun(3, "DerivedTypes", java.util.List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS derived types")).hasSize(3);
    }

    @Test
    void cartesianGraphAndDistributedGraphTopologiesWithTheirNeighbourhoodCollectives() {
        Jmca.Result result = new Jmca(home).mpirun(4, "Topologies", java.util.List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS topologies")).hasSize(4);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void intercommunicatorsCarryPointToPointAndEveryCollectiveBetweenTheirGroups(int np) {
        Jmca.Result result = new Jmca(home).mpirun(np, "Intercomms", java.util.List.of());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS intercomm")).hasSize(np);
    }

    /** Issue 33: each behaviour a program written for Open MPI's bindings relies on, as processes and as threads. */
    @ParameterizedTest(name = "{0} ranks as {1}")
    @org.junit.jupiter.params.provider.CsvSource({"2, processes", "3, threads"})
    void behavioursOfOpenMpisBindingsThatProgramsRelyOn(int np, String ranksAs) {
        Jmca.Result result = new Jmca(home).mpirun(np, "OpenMpiBehaviours", java.util.List.of("--ranks-as", ranksAs));
        java.util.List<String> behaviours = java.util.List.of("user-function-pairs", "elements-of-a-partial-element",
                "negative-stride-on-a-slice", "window-allocate", "window-allocate-shared", "window-without-memory",
                "request-operations-in-fence", "window-no-locks", "window-bad-keyval", "dist-graph-longer-arrays",
                "info-env");
        org.assertj.core.api.SoftAssertions.assertSoftly(soft -> {
            for (String behaviour : behaviours) {
                soft.assertThat(result.outLines()).as("%s; stdout: %s; stderr: %s", behaviour, result.out(),
                        result.err()).filteredOn(l -> l.startsWith("PASS " + behaviour + " rank ")).hasSize(np);
            }
            soft.assertThat(result.status()).as("status").isZero();
        });
    }

    @Test
    void mpiIoWritesInterleavedViewsCollectivelyAndReadsThemBack() throws java.io.IOException {
        Path dir = java.nio.file.Files.createDirectories(home.resolve("io"));
        Jmca.Result result = new Jmca(home).mpirun(3, "FileIo", java.util.List.of(), dir.toString());
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS file io")).hasSize(3);
        try (var left = java.nio.file.Files.list(dir)) {
            assertThat(left).as("files left behind (shared pointers, deleted files)").isEmpty();
        }
    }
}
