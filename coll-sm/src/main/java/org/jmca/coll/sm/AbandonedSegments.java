package org.jmca.coll.sm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * coll/sm's files that a job without a session directory (under mpirun or srun, where they go
 * to {@code coll_sm_directory}) left behind when it died before every rank had mapped them.
 * Rank 0 maps a file before it gives it its name, and the last rank to map it removes it, so a
 * named file that no process maps belongs to a job that is gone; a temporary one ({@code .new})
 * is left alone for a minute, the moment between its creation and its mapping.
 */
final class AbandonedSegments {
    private static final Duration TEMPORARY_GRACE = Duration.ofMinutes(1);

    private AbandonedSegments() {
    }

    /** Removes this user's abandoned coll/sm files in {@code directory}; the others stay. */
    static void remove(Path directory) {
        List<Path> candidates;
        try (Stream<Path> files = Files.list(directory)) {
            String me = System.getProperty("user.name");
            Instant settled = Instant.now().minus(TEMPORARY_GRACE);
            candidates = files.filter(f -> f.getFileName().toString().contains(".collsm."))
                    .filter(f -> isOwnSettledFile(f, me, settled))
                    .toList();
        } catch (IOException e) {
            return;
        }
        if (candidates.isEmpty()) {
            return;
        }
        Set<String> mapped = mappedFiles();
        if (mapped == null) {
            return;
        }
        for (Path file : candidates) {
            if (!mapped.contains(file.toAbsolutePath().toString())) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // another process removed it, or may not: nothing this job relies on
                }
            }
        }
    }

    private static boolean isOwnSettledFile(Path file, String owner, Instant settled) {
        try {
            if (!Files.isRegularFile(file) || !Files.getOwner(file).getName().equals(owner)) {
                return false;
            }
            FileTime modified = Files.getLastModifiedTime(file);
            return !file.getFileName().toString().endsWith(".new") || modified.toInstant().isBefore(settled);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Every file some process maps, as /proc/PID/maps names it, or null where there is no /proc
     * (then nothing is known to be unmapped). A process whose maps this user cannot read is
     * another user's, and cannot have opened this user's files (mode 0600).
     */
    static Set<String> mappedFiles() {
        Set<String> mapped = new HashSet<>();
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try (Stream<String> lines = Files.lines(p.resolve("maps"))) {
                    lines.forEach(line -> {
                        int path = line.indexOf('/');
                        if (path >= 0) {
                            mapped.add(line.substring(path));
                        }
                    });
                } catch (IOException | java.io.UncheckedIOException e) {
                    // ended meanwhile, or another user's
                }
            });
        } catch (IOException e) {
            return null;
        }
        return mapped;
    }
}
