package org.jmca.mca.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The directory a fuzz test class writes its files in (jqwik has no temporary directory of its own). */
public final class FuzzFiles {
    private FuzzFiles() {
    }

    /**
     * A new temporary directory for a fuzz test class's files, removed with what it holds when
     * the test JVM ends.
     */
    public static Path directory(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    deleteTree(dir);
                } catch (IOException e) {
                    // a temporary directory left behind
                }
            }));
            return dir;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Removes {@code dir} and everything in it. */
    public static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
