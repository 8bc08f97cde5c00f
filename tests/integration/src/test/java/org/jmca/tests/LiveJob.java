package org.jmca.tests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

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
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (lines.stream().filter(match).count() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within 60 s; lines so far: " + lines);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return lines.stream().filter(match).toList();
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
