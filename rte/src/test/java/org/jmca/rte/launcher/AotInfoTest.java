package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotInfoTest {
    @TempDir
    Path home;
    private final String lib = System.getProperty("jmca.lib");

    @AfterEach
    void restore() {
        if (lib == null) {
            System.clearProperty("jmca.lib");
        } else {
            System.setProperty("jmca.lib", lib);
        }
    }

    @Test
    void eachCacheIsTriedAndARefusalGivesTheJvmsOwnReason() throws Exception {
        Path libDir = Files.createDirectories(home.resolve("lib"));
        Path aot = Files.createDirectories(home.resolve("aot"));
        Files.setLastModifiedTime(Files.writeString(libDir.resolve("jmca-x.jar"), "x"), FileTime.fromMillis(1_000_000));
        // the ranks' cache is not a cache at all; jmpirun's is older than a jar; the threads' one is missing
        Files.writeString(aot.resolve("jmca-rank.aot"), "not an AOT cache");
        Files.setLastModifiedTime(Files.writeString(aot.resolve("jmca-launcher.aot"), "old"), FileTime.fromMillis(1));
        System.setProperty("jmca.lib", libDir.toString());

        List<String> lines = new AotInfo().lines();

        assertThat(lines.getFirst()).isEqualTo("AOT caches (" + aot + "):");
        assertThat(lines.get(1)).startsWith("  the ranks' JVMs (jmca-rank.aot): not used; the JVM says: ")
                .contains("Unable to read the file header");
        assertThat(lines.get(2)).isEqualTo("  jmpirun (jmca-launcher.aot): not used: a jar of " + libDir
                + " is newer than it (rebuild: ./mvnw -q install -DskipTests)");
        assertThat(lines.get(3)).startsWith("  jmpirun --ranks-as threads (jmca-launcher-threads.aot): none:");
    }
}
