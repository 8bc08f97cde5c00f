package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The java command lines of spawned programs, as jmpirun takes them. */
class SpawnLineTest {
    private static final String PARENT = String.join(File.pathSeparator, "/app/classes", "/app/lib/dep.jar");

    private static List<String> line(String[][] argv, int... maxprocs) {
        String[] commands = new String[argv.length];
        java.util.Arrays.fill(commands, "java");
        return SpawnLine.jmpirunArguments(commands, argv, maxprocs, PARENT);
    }

    @Test
    void aClassWithoutAClassPathRunsOnTheSpawningRanksClassPath() {
        assertThat(line(new String[][] {{"demo.Child", "a", "-b"}}, 3))
                .containsExactly("-np", "3", "-cp", PARENT, "demo.Child", "a", "-b");
    }

    @Test
    void jvmOptionsGoToEveryRankAndANamedClassPathWins() {
        assertThat(line(new String[][] {{"-Xmx64m", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", "/mine",
                "demo.Child", "-cp"}}, 1))
                .containsExactly("-np", "1", "--jvm-arg", "-Xmx64m", "--jvm-arg",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", "/mine", "demo.Child", "-cp");
    }

    @Test
    void aJarRunsAsItIs() {
        assertThat(line(new String[][] {{"-jar", "/app/child.jar", "x"}}, 2))
                .containsExactly("-np", "2", "-jar", "/app/child.jar", "x");
    }

    @Test
    void severalProgramsRunAsApplicationContextsOfOneJob() {
        List<String> line = line(new String[][] {{"demo.First", "1"}, {"-cp", "/other", "demo.Second"}}, 1, 2);
        assertThat(line.subList(0, 3)).containsExactly("-np", "3", "-cp");
        assertThat(line.get(3).split(File.pathSeparator)).startsWith("/app/classes", "/app/lib/dep.jar", "/other");
        assertThat(line.subList(4, line.size())).containsExactly(AppContexts.class.getName(),
                "1", "demo.First", "1", "1", "2", "demo.Second", "0");
        assertThat(AppContexts.parse(line.subList(5, line.size()).toArray(String[]::new))).containsExactly(
                new AppContexts.App(1, "demo.First", List.of("1")), new AppContexts.App(2, "demo.Second", List.of()));
    }

    @Test
    void whatCannotBeSpawnedIsRefusedWithItsReason() {
        assertThatThrownBy(() -> SpawnLine.jmpirunArguments(new String[] {"python3"}, new String[][] {{"x.py"}},
                new int[] {1}, PARENT)).hasMessageContaining("not 'python3'");
        assertThatThrownBy(() -> line(new String[][] {{"-Xmx1g"}}, 1)).hasMessageContaining("names no class");
        assertThatThrownBy(() -> line(new String[][] {{"demo.A"}}, 0)).hasMessageContaining("maxprocs 0");
        assertThatThrownBy(() -> line(new String[][] {{"-Xmx1g", "demo.A"}, {"demo.B"}}, 1, 1))
                .hasMessageContaining("share their JVM options");
        assertThatThrownBy(() -> line(new String[][] {{"-cp"}}, 1)).hasMessageContaining("-cp lacks its value");
    }
}
