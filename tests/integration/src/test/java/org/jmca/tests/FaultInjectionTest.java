package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Faults injected into real jobs at each stage of a rank's life, over each transport: a rank
 * killed (SIGKILL), a rank stopped (SIGSTOP, a peer that stops reading) in a job with a
 * {@code --timeout}, and jmpirun itself killed. Each ends as it must (status, a message naming the
 * rank and the cause) within a bound, and leaves no process and no file in {@code /dev/shm}.
 *
 * <p>The suite runs a sample that has every fault, every stage and every transport at least once;
 * {@code -Djmca.faults=all} runs all of them ({@code bench/fault-matrix}). Each case appends a line
 * to {@code target/fault-injection.csv}: what, the outcome and how long the job took to end after
 * the fault.
 */
class FaultInjectionTest {
    /** The limit a stopped rank's job runs under: enough for 3 JVMs to start on a loaded 2-core machine. */
    private static final int TIMEOUT_SECONDS = 6;
    private static final Path REPORT = Path.of("target", "fault-injection.csv");

    enum Fault { KILL_RANK, STOP_RANK, KILL_JMPIRUN }

    /** Where rank 1 is when the fault comes; the program's mode of the same name ({@code Failing}). */
    enum Stage {
        INIT("init"), COLLECTIVE("collectives"), RENDEZVOUS("stream"), SPAWN("spawn"), FINALIZE("finalize");

        final String mode;

        Stage(String mode) {
            this.mode = mode;
        }
    }

    enum Transport {
        SM("self,sm"),
        TCP("self,tcp", "--mca", "coll", "^sm"),
        GM("self,gm", "--mca", "btl_gm_device", "emulated", "--mca", "coll", "^sm"),
        LAPI("self,lapi", "--mca", "btl_lapi_device", "emulated", "--mca", "coll", "^sm"),
        VERBS("self,verbs", "--mca", "btl_verbs_device", "soft", "--mca", "coll", "^sm");

        final List<String> flags;

        Transport(String btl, String... more) {
            List<String> all = new ArrayList<>(List.of("--mca", "btl", btl));
            all.addAll(List.of(more));
            flags = List.copyOf(all);
        }
    }

    /** What the suite runs: each fault, stage and transport at least once. */
    private static final Set<String> SAMPLE = Set.of(
            "KILL_RANK INIT SM", "KILL_RANK FINALIZE SM", "KILL_RANK COLLECTIVE TCP", "KILL_RANK RENDEZVOUS GM",
            "KILL_RANK COLLECTIVE LAPI", "KILL_RANK RENDEZVOUS VERBS", "KILL_RANK SPAWN TCP",
            "STOP_RANK RENDEZVOUS TCP", "KILL_JMPIRUN COLLECTIVE TCP", "KILL_JMPIRUN SPAWN TCP");

    @TempDir
    Path home;

    static Stream<Arguments> cases() {
        boolean all = "all".equals(System.getProperty("jmca.faults"));
        List<Arguments> cases = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (Stage stage : Stage.values()) {
                for (Transport transport : Transport.values()) {
                    // jobs reach one another over tcp only: a spawn over another transport is refused
                    boolean runs = stage != Stage.SPAWN || transport == Transport.TCP;
                    if (runs && (all || SAMPLE.contains(fault + " " + stage + " " + transport))) {
                        cases.add(Arguments.of(fault, stage, transport));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} in {1} over {2}")
    @MethodSource("cases")
    void theJobEndsAsItMustWithinItsBoundAndLeavesNothing(Fault fault, Stage stage, Transport transport)
            throws Exception {
        Leftovers before = Leftovers.before();
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np", "3"));
        if (fault == Fault.STOP_RANK) {
            command.addAll(List.of("--timeout", String.valueOf(TIMEOUT_SECONDS)));
        }
        command.addAll(transport.flags);
        command.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", stage.mode));
        if (stage == Stage.SPAWN) {
            command.add(Jmca.PROGRAMS.toString()); // the children's class path
        }
        List<Long> ranks;
        int status;
        long faultAt;
        long endedAt;
        try (LiveJob job = new LiveJob(new Jmca(home).start(command))) {
            ranks = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 3, "pids").stream()
                    .map(l -> Long.parseLong(l.split(" ")[3])).sorted().toList();
            long victim = job.out.stream().filter(l -> l.startsWith("rank 1 pid ")).map(l -> Long.parseLong(l.split(" ")[3]))
                    .findFirst().orElseThrow();
            if (stage == Stage.RENDEZVOUS || stage == Stage.COLLECTIVE) {
                Thread.sleep(200); // into the traffic: the pid is printed before the first message
            }
            faultAt = System.nanoTime();
            switch (fault) {
                case KILL_RANK -> signal("KILL", victim);
                case STOP_RANK -> signal("STOP", victim);
                case KILL_JMPIRUN -> signal("KILL", job.process.pid());
            }
            status = job.waitFor(60); // a bound against a hang; the cause is what the message says
            endedAt = System.nanoTime();
            String err = String.join("\n", job.err);
            switch (fault) {
                case KILL_RANK -> {
                    assertThat(status).as(err).isEqualTo(137);
                    assertThat(err).contains("jmpirun: rank 1 (pid " + victim + ") was killed by signal 9 (SIGKILL);"
                            + " stopping the job");
                }
                case STOP_RANK -> {
                    assertThat(status).as(err).isEqualTo(124);
                    assertThat(err).contains("jmpirun: the job ran longer than --timeout " + TIMEOUT_SECONDS
                            + " s: rank 1 (pid " + victim + ") was stopped by a signal; stopping the job");
                }
                case KILL_JMPIRUN -> assertThat(status).isEqualTo(137);
            }
        }
        for (long pid : ranks) {
            ProcessHandle.of(pid).ifPresent(rank -> rank.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        }
        long leftAt = System.nanoTime();
        before.awaitNone();
        long cleanAt = System.nanoTime();
        record(fault.name(), stage.name(), transport.name(), status, endedAt - faultAt, Math.max(leftAt, cleanAt) - faultAt);
    }

    /**
     * A rank of a spawned job killed: its jmpirun ends that job, and the parent job, whose ranks
     * wait for the children, ends too (as Open MPI does), saying why; nothing is left.
     */
    @org.junit.jupiter.api.Test
    void aSpawnedRankKilledEndsItsJobAndTheParentJobNamingIt() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = new LiveJob(new Jmca(home).start(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np",
                "2", "--mca", "btl", "self,sm,tcp", "-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", "spawn",
                Jmca.PROGRAMS.toString())))) {
            LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 2, "parent pids");
            List<String> children = LiveJob.await(job.out, l -> l.matches("child \\d pid \\d+"), 2, "child pids");
            long victim = children.stream().filter(l -> l.startsWith("child 1 ")).map(l -> Long.parseLong(l.split(" ")[3]))
                    .findFirst().orElseThrow();
            long fault = System.nanoTime();
            signal("KILL", victim);
            int status = job.waitFor(60);
            long ended = System.nanoTime();
            // the parent's ranks learn it from btl/tcp (the child's connection reset) or from the
            // spawned job's end, whichever comes first: either way the job ends, saying why
            assertThat(status).as("stderr: %s", job.err).isNotZero();
            assertThat(String.join("\n", job.err)).containsPattern("jmpirun: rank \\d aborted the job with error code \\d+: "
                    + ".*(lost its connection to rank [23]|the job rank 0 spawned \\(jmpirun pid \\d+\\) ended with status 137)"
                    + ".*; stopping the job");
            before.awaitNone();
            record("KILL_SPAWNED_RANK", "SPAWN", "TCP", status, ended - fault, System.nanoTime() - fault);
        }
    }

    /**
     * jmpirun stopped (SIGSTOP): its ranks need it only in MPI.Init and for their output, so they
     * finish on their own and exit; jmpirun, continued, reports the job's status.
     */
    @org.junit.jupiter.api.Test
    void aStoppedJmpirunLetsItsRanksFinishAndReportsOnceContinued() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = new LiveJob(new Jmca(home).start(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np",
                "3", "-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", "collectives", "2000")))) {
            List<Long> ranks = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 3, "pids").stream()
                    .map(l -> Long.parseLong(l.split(" ")[3])).toList();
            long fault = System.nanoTime();
            signal("STOP", job.process.pid());
            // ended: a zombie until the stopped jmpirun, their parent, reaps them
            LiveJob.until(() -> ranks.stream().allMatch(FaultInjectionTest::ended), () -> "ranks still running");
            long ranksEnded = System.nanoTime();
            signal("CONT", job.process.pid());
            int status = job.waitFor(30);
            assertThat(status).as("stderr: %s", job.err).isZero();
            before.awaitNone();
            record("STOP_JMPIRUN", "COLLECTIVE", "SM", status, ranksEnded - fault, System.nanoTime() - fault);
        }
    }

    /** Whether the process has exited: gone, or a zombie its parent has not reaped yet. */
    private static boolean ended(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException e) {
            return true;
        }
    }

    static void signal(String name, long pid) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).inheritIO().start().waitFor()).isZero();
    }

    /** Appends a case to the report: what was done, where, the job's status, and the seconds it took to end and to leave nothing. */
    static synchronized void record(String fault, String stage, String transport, int status, long endNanos,
                                            long cleanNanos) throws IOException {
        boolean fresh = Files.notExists(REPORT);
        String line = String.format(Locale.ROOT, "%s%s,%s,%s,%d,%.2f,%.2f%n",
                fresh ? "fault,stage,transport,status,seconds_to_end,seconds_to_nothing_left\n" : "", fault, stage,
                transport, status, endNanos / 1e9, cleanNanos / 1e9);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
