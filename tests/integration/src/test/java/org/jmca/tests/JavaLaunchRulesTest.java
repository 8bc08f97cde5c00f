package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jmca.launch.MpiJob;
import org.jmca.launch.RankFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ranks start a program as the {@code java} launcher of JDK 25 starts it (issue 39): a main class
 * that is not public, an instance main method, a main without parameters; MPI.INFO_ENV's
 * "command" is the program's main class; a class without a main method that java would run is an
 * error naming it. As rank processes and as thread ranks, through jmpirun and the launch API.
 */
class JavaLaunchRulesTest {
    private static final String PROGRAMS = "org.jmca.tests.programs.";

    @TempDir
    Path home;

    private static List<String> expected(String program, String kind) {
        List<String> lines = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            lines.add("rank " + rank + ": " + kind + "; command " + PROGRAMS + program + " (its main class)");
        }
        return lines;
    }

    @ParameterizedTest(name = "{0} as {1} through jmpirun")
    @CsvSource({
        "NonPublicMain, processes, static main(String[]) of a class that is not public",
        "NonPublicMain, threads,   static main(String[]) of a class that is not public",
        "InstanceMain,  processes, 'instance main(String[]), made by its constructor, args a,b'",
        "InstanceMain,  threads,   'instance main(String[]), made by its constructor, args a,b'",
        "NoArgsMain,    processes, static main()",
        "NoArgsMain,    threads,   static main()",
    })
    void jmpirunStartsTheProgramAsJavaWould(String program, String ranksAs, String kind) {
        String[] args = program.equals("InstanceMain") ? new String[] {"a", "b"} : new String[0];
        Jmca.Result result = new Jmca(home).mpirun(2, program, List.of("--ranks-as", ranksAs), args);
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).containsExactlyInAnyOrderElementsOf(expected(program, kind));
    }

    @Test
    void theLaunchApiStartsThemAsJavaWouldToo() throws Exception {
        for (MpiJob.Builder job : List.of(MpiJob.processes(2), MpiJob.threads(2))) {
            MpiJob.Result result = job.classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0")
                    .main(PROGRAMS + "InstanceMain", "a", "b").start().waitFor(Duration.ofMinutes(1));
            for (int rank = 0; rank < 2; rank++) {
                assertThat(result.stdout(rank)).containsExactly(
                        expected("InstanceMain", "instance main(String[]), made by its constructor, args a,b").get(rank));
            }
        }
    }

    /** Where java finds no main method it would run, neither do thread ranks: the error names the class. */
    @Test
    void aClassWithoutAMainJavaWouldRunIsAnErrorNamingIt() {
        for (String ranksAs : List.of("processes", "threads")) {
            Jmca.Result result = new Jmca(home).mpirun(2, "NoMain", List.of("--ranks-as", ranksAs));
            assertThat(result.status()).as(ranksAs).isNotZero();
            assertThat(result.out() + result.err()).as(ranksAs)
                    .contains("Main method not found in class " + PROGRAMS + "NoMain")
                    .doesNotContain("a private main must not run");
        }
        assertThatThrownBy(() -> MpiJob.threads(2).classPath(Jmca.PROGRAMS).main(PROGRAMS + "NoMain").start()
                .waitFor(Duration.ofMinutes(1)))
                .isInstanceOf(RankFailedException.class)
                .hasMessageContaining("Main method not found in class " + PROGRAMS + "NoMain");
    }
}
