package org.jmca.coll.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a job without a session directory left in the shared directory, and what stays. */
class AbandonedSegmentsTest {
    @TempDir
    Path directory;

    private Path file(String name, Instant modified) throws IOException {
        Path file = Files.write(directory.resolve(name), new byte[4096]);
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }

    @Test
    void aSegmentNoProcessMapsIsRemovedAndAMappedOneOrAFreshTemporaryOneStays() throws IOException {
        Path abandoned = file("jmca-pmix-1-ab.collsm.0.ff", Instant.now());
        Path oldTemporary = file("jmca-pmix-2-ab.collsm.0.ff.new", Instant.now().minusSeconds(600));
        Path freshTemporary = file("jmca-pmix-3-ab.collsm.0.ff.new", Instant.now());
        Path inUse = file("jmca-pmix-4-ab.collsm.0.ff", Instant.now().minusSeconds(600));
        Path other = file("jmca-pmix-5-ab.sm.0", Instant.now().minusSeconds(600));
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(inUse, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096, arena);
            AbandonedSegments.remove(directory);
            assertThat(abandoned).as("a named segment no process maps").doesNotExist();
            assertThat(oldTemporary).as("a temporary segment older than a minute").doesNotExist();
            assertThat(freshTemporary).as("a temporary segment being made").exists();
            assertThat(inUse).as("a segment this process maps").exists();
            assertThat(other).as("a file that is not coll/sm's").exists();
        }
    }
}
