package org.jmca.tune;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@link TunePoints} jobs through {@code bin/jmpirun}, as the user would run a program: the
 * placement and transport flags the user gave, with the tuned component's priority raised so that
 * it serves every collective it has (coll/sm and the others would otherwise serve some, and the
 * table would tune nothing there). Each point's outcome is handed on as it arrives; a
 * point that gives no word within the stall limit ends its job, is recorded as failed, and the
 * rest of the plan goes on in a new job.
 */
final class TuneJobs {
    /** Where jmpirun is, and the flags every job gets (placement, transports, the user's --mca). */
    record Launch(Path jmpirun, Component component, List<String> flags, int[] counts, long stallSeconds) {
    }

    /** What a job said of one point: its latency, or why there is none. */
    record Outcome(TunePoints.Planned point, double micros, String error) {
    }

    /** A job that ended before it measured anything: its flags or the machine are wrong, not a point. */
    static final class JobFailedException extends RuntimeException {
        JobFailedException(String message) {
            super(message);
        }
    }

    private final Launch launch;

    TuneJobs(Launch launch) {
        this.launch = launch;
    }

    /**
     * Measures {@code plan} on {@code ranks} ranks, with {@code extra} flags (a rules table for a
     * verification), handing each outcome to {@code sink}; every point gets one.
     */
    void run(int ranks, List<TunePoints.Planned> plan, List<String> extra, Consumer<Outcome> sink) {
        Deque<TunePoints.Planned> left = new ArrayDeque<>(plan);
        while (!left.isEmpty()) {
            runJob(ranks, left, extra, sink);
        }
    }

    /** One job over what is left; removes each point it settles. */
    private void runJob(int ranks, Deque<TunePoints.Planned> left, List<String> extra, Consumer<Outcome> sink) {
        Map<Integer, TunePoints.Planned> byIndex = new java.util.HashMap<>();
        left.forEach(p -> byIndex.put(p.index(), p));
        Path planFile;
        try {
            planFile = Files.createTempFile("jmca-tune-plan", ".txt");
            Files.write(planFile, left.stream().map(TunePoints.Planned::line).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the plan: " + e.getMessage(), e);
        }
        List<String> command = new ArrayList<>(List.of(launch.jmpirun().toString(), "-np", Integer.toString(ranks)));
        command.addAll(launch.flags());
        command.addAll(extra);
        command.addAll(List.of("-cp", ownJar(), TunePoints.class.getName(), launch.component().id,
                planFile.toString()));
        for (int count : launch.counts()) {
            command.add(Integer.toString(count));
        }
        StringBuilder errors = new StringBuilder();
        Process process = start(command);
        Thread stderr = Thread.ofVirtual().start(() -> keepTail(process, errors));
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread stdout = Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                reader.lines().forEach(lines::add);
            } catch (IOException | UncheckedIOException e) {
                // the job is gone; what it said is in
            }
            lines.add("");
        });
        boolean stalled = false;
        try {
            while (true) {
                String line = lines.poll(launch.stallSeconds(), TimeUnit.SECONDS);
                if (line == null) { // stalled: the point in hand hangs
                    stalled = true;
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    settle(left, byIndex, left.peekFirst().index(), Double.NaN, "no result within "
                            + launch.stallSeconds() + " s: the job was stopped", sink);
                    break;
                }
                if (line.isEmpty()) {
                    break; // the job's output ended
                }
                String[] f = line.split(" ", 3);
                if (f.length >= 3 && f[0].equals("POINT")) {
                    settle(left, byIndex, Integer.parseInt(f[1]), Double.parseDouble(f[2]), null, sink);
                } else if (f.length >= 2 && f[0].equals("FAILED")) {
                    settle(left, byIndex, Integer.parseInt(f[1]), Double.NaN, f.length > 2 ? f[2] : "failed", sink);
                }
            }
            int status = process.waitFor();
            stdout.join();
            stderr.join();
            String why = "the job ended with status " + status + ": " + errors.toString().strip().replace('\n', ' ');
            if (left.size() == byIndex.size()) { // nothing measured: the job itself cannot run
                throw new JobFailedException(why);
            }
            if (!left.isEmpty() && status != 0 && !stalled) { // the point in hand killed it
                settle(left, byIndex, left.peekFirst().index(), Double.NaN, why, sink);
            }
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            try {
                Files.deleteIfExists(planFile);
            } catch (IOException e) {
                // a temporary file
            }
        }
    }

    private static void settle(Deque<TunePoints.Planned> left, Map<Integer, TunePoints.Planned> byIndex, int index,
                               double micros, String error, Consumer<Outcome> sink) {
        TunePoints.Planned point = byIndex.get(index);
        if (point != null && left.remove(point)) {
            sink.accept(new Outcome(point, micros, error));
        }
    }

    private static Process start(List<String> command) {
        try {
            return new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
        }
    }

    /** Keeps the last lines of the job's standard error, for the reason of a failure. */
    private static void keepTail(Process process, StringBuilder errors) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            reader.lines().forEach(line -> {
                synchronized (errors) {
                    errors.append(line).append('\n');
                    if (errors.length() > 2000) {
                        errors.delete(0, errors.length() - 2000);
                    }
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // the job is gone
        }
    }

    /** The jar (or classes directory) this class came from: the ranks' class path. */
    private static String ownJar() {
        try {
            return Path.of(TuneJobs.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
