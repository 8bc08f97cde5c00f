package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a test job may leave behind, taken before it starts and checked after it ends: JMCA's
 * entries in {@code /dev/shm} (other jobs' may be there already) and processes of the test
 * programs or of a host daemon.
 */
record Leftovers(Set<String> shmBefore) {

    static Leftovers before() {
        return new Leftovers(shm());
    }

    /** JMCA's files and directories in /dev/shm now. */
    static Set<String> shm() {
        try (Stream<Path> entries = Files.list(Path.of("/dev/shm"))) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jmca-"))
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Entries of /dev/shm that were not there before. */
    Set<String> newInShm() {
        Set<String> now = new HashSet<>(shm());
        now.removeAll(shmBefore);
        return now;
    }

    /**
     * Waits until the job left nothing (a killed jmpirun's reaper removes its directory a moment
     * after) and no test program or daemon runs, failing after a minute.
     */
    void awaitNone() {
        LiveJob.until(() -> newInShm().isEmpty() && processes().isEmpty(),
                () -> "left behind: /dev/shm " + newInShm() + ", processes " + processes());
    }

    /** No rank or daemon of a test job runs, and the job left nothing in /dev/shm, now. */
    void assertNone() {
        assertThat(processes()).as("processes left").isEmpty();
        assertThat(newInShm()).as("left in /dev/shm").isEmpty();
    }

    private static Set<String> processes() {
        return ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains("org.jmca.tests.programs.") || c.contains("HostDaemon"))
                .collect(Collectors.toSet());
    }
}
