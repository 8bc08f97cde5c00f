package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCacheTest {
    @TempDir
    Path home;
    Path lib;

    @BeforeEach
    void layOut() throws Exception {
        lib = Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("aot"));
    }

    /** A file of the distribution, {@code lib/NAME} or {@code aot/NAME}. */
    private Path file(String name, long modifiedMillis) throws Exception {
        Path file = Files.writeString(name.endsWith(".jar") ? lib.resolve(name) : home.resolve(name), name);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modifiedMillis));
        return file;
    }

    @Test
    void theRanksGetTheCacheWhileNoJarIsNewer() throws Exception {
        file("jmca-mpi.jar", 1_000_000);
        Path cache = file(AotCache.RANK_CACHE, 2_000_000);
        assertThat(AotCache.options(lib, List.of("-Xmx1g")))
                .containsExactly("-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off",
                        "-XX:CompileCommand=quiet", AotCache.CLASS_FILE_THRESHOLDS);
    }

    @Test
    void aJarRebuiltAfterTheTrainingLeavesTheCacheOut() throws Exception {
        file(AotCache.RANK_CACHE, 2_000_000);
        file("jmca-mpi.jar", 3_000_000);
        assertThat(AotCache.options(lib, List.of())).isEmpty();
    }

    @Test
    void noCacheWithoutTheFileOrWhenTheUserBringsAnAotOrCdsOption() throws Exception {
        assertThat(AotCache.options(lib, List.of())).isEmpty();
        file("jmca-mpi.jar", 1_000_000);
        file(AotCache.RANK_CACHE, 2_000_000);
        assertThat(AotCache.options(lib, List.of("-XX:AOTCache=/elsewhere.aot"))).isEmpty();
        assertThat(AotCache.options(lib, List.of("-Xshare:off"))).isEmpty();
        assertThat(AotCache.options(lib, List.of("-XX:SharedArchiveFile=app.jsa"))).isEmpty();
    }

    @Test
    void aCacheOlderThanAJarIsReportedUnlessTheUserBringsHisOwn() throws Exception {
        assertThat(AotCache.whyUnused(lib, List.of())).as("no cache at all: nothing to say").isNull();
        Path cache = file(AotCache.RANK_CACHE, 2_000_000);
        file("jmca-mpi.jar", 1_000_000);
        assertThat(AotCache.whyUnused(lib, List.of())).as("used").isNull();
        file("jmca-mpi.jar", 3_000_000);
        assertThat(AotCache.whyUnused(lib, List.of())).isEqualTo("the ranks' ahead-of-time cache " + cache
                + " is older than a jar beside it, so they start without it (rebuild: ./mvnw -q install -DskipTests)");
        assertThat(AotCache.whyUnused(lib, List.of("-XX:AOTCache=/elsewhere.aot"))).isNull();
    }
}
