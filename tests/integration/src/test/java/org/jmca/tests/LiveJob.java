package org.jmca.tests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** A job running in the background whose output lines a test watches as they come. */
final class LiveJob implements AutoCloseable {
    final Process process;
    final List<String> out = new CopyOnWriteArrayList<>();
    final List<String> err = new CopyOnWriteArrayList<>();

    LiveJob(Process process) {
        this.process = process;
        collect(process.getInputStream(), out);
        collect(process.getErrorStream(), err);
    }

    private static void collect(InputStream stream, List<String> lines) {
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The job ended.
            }
        });
    }

    /** Waits until {@code lines} has {@code count} lines that match, and returns them. */
    static List<String> await(List<String> lines, Predicate<String> match, int count, String what) {
        until(() -> lines.stream().filter(match).count() >= count, () -> "no " + what + " within 60 s; lines so far: "
                + lines);
        return lines.stream().filter(match).toList();
    }

    /** Waits until {@code state} holds (a state the job reaches, not a time), failing after 60 s as a hang. */
    static void until(BooleanSupplier state, Supplier<String> otherwise) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!state.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(otherwise.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The memory mappings of process {@code pid} ({@code /proc/PID/maps}), as lines. */
    static List<String> maps(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/maps"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the job to end and returns its status. */
    int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the job did not end within " + seconds + " s; stderr: " + err);
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
