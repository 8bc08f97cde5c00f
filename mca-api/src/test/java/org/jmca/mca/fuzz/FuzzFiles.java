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

    /** Removes {@code dir} and everything in it. */
    public static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
