package org.jmca.rte.launcher;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ranks' JVMs on this host: started with their environment, their output forwarded line by
 * line to {@link RankOutput}, standard input forwarded to rank 0 when the launcher is jmpirun's
 * own process, and stopped together when the job fails.
 */
final class RankProcesses {
    private final Map<Integer, Process> processes = new TreeMap<>();
    private final List<Thread> forwarders = new ArrayList<>();
    /** Lines forwarded so far, which tells a drain whether the forwarders still move. */
    private final AtomicLong forwarded = new AtomicLong();
    private final RankOutput output;
    private final boolean forwardStdin;

    /** @param forwardStdin whether rank 0 reads this process's standard input (jmpirun's own), else nothing */
    RankProcesses(RankOutput output, boolean forwardStdin) {
        this.output = output;
        this.forwardStdin = forwardStdin;
    }

    /** Starts rank {@code rank} with the command and the extra environment. */
    synchronized Process start(int rank, List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        if (rank != 0 || !forwardStdin) {
            builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        Process process = builder.start();
        processes.put(rank, process);
        forward(rank, process.getInputStream(), false);
        forward(rank, process.getErrorStream(), true);
        if (rank == 0 && forwardStdin) {
            forwardStdin(process.getOutputStream());
        }
        return process;
    }

    /** The process of local rank {@code rank}. */
    Process process(int rank) {
        return processes.get(rank);
    }

    /**
     * The local ranks whose process is stopped now (state T or t in {@code /proc/PID/stat}: a
     * SIGSTOP, a SIGTSTP, a debugger): what a job that ran out of time was waiting for,
     * rank to pid.
     */
    synchronized Map<Integer, Long> stopped() {
        Map<Integer, Long> stopped = new TreeMap<>();
        processes.forEach((rank, process) -> {
            try {
                String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state == 'T' || state == 't') {
                    stopped.put(rank, process.pid());
                }
            } catch (IOException | RuntimeException e) {
                // ended meanwhile, or no /proc here: nothing to name
            }
        });
        return stopped;
    }

    private void forward(int rank, InputStream stream, boolean stderr) {
        // A platform thread (see JobServer): it ends at the rank's end of file, leaving no thread in native code.
        forwarders.add(Thread.ofPlatform().daemon().name("jmpirun-" + (stderr ? "stderr" : "stdout") + "-" + rank)
                .start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    output.line(rank, stderr, line);
                    forwarded.incrementAndGet();
                }
            } catch (IOException e) {
                // The rank is gone; what it wrote has been forwarded.
            }
        }));
    }

    /** Copies jmpirun's standard input to rank 0 on a daemon thread (a read of stdin cannot be interrupted). */
    private static void forwardStdin(OutputStream rankZero) {
        Thread copier = new Thread(() -> {
            try (rankZero) {
                System.in.transferTo(rankZero);
            } catch (IOException e) {
                // Rank 0 stopped reading.
            }
        }, "jmpirun-stdin");
        copier.setDaemon(true);
        copier.start();
    }

    /** Sends signal {@code name} (one of {@link ForwardedSignals#NAMES}) to every rank still running. */
    synchronized void signal(String name) {
        ForwardedSignals.send(processes.values(), name);
    }

    /**
     * Stops every rank still running: SIGTERM, then SIGKILL after {@code graceMillis}; a stopped
     * rank at once with SIGKILL (it would act on SIGTERM only once continued).
     */
    void stopAll(long graceMillis) {
        stopped().keySet().forEach(rank -> processes.get(rank).destroyForcibly());
        processes.values().stream().filter(Process::isAlive).forEach(Process::destroy);
        long deadline = System.nanoTime() + graceMillis * 1_000_000;
        for (Process process : processes.values()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /**
     * Waits until everything the ranks wrote has been forwarded: as long as lines still go out (a
     * slow reader of jmpirun's output only slows the forwarders; a bound on the whole wait lost the
     * tail of a large output), and 2 s after the last one at most (a pipe that a rank's own child
     * keeps open never ends).
     */
    void drainOutput() {
        for (Thread forwarder : forwarders) {
            long seen = -1;
            while (forwarder.isAlive() && forwarded.get() != seen) {
                seen = forwarded.get();
                try {
                    forwarder.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
