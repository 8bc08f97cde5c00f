package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.ArrayList;

/** jmpirun's own duties: standard input, -jar, the wire-up timeout, start-up errors, its usage. */
class LauncherTest {

    @TempDir
    Path home;

    private List<String> jmpirun(String... args) {
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString()));
        command.addAll(List.of(args));
        return command;
    }

    @Test
    void standardInputGoesToRankZero() {
        Jmca.Result result = new Jmca(home).exec(jmpirun("-np", "3", "-cp", Jmca.PROGRAMS.toString(),
                "org.jmca.tests.programs.Launching", "stdin"), "one\ntwo\nthree\n");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).contains("rank 0 knows rank 0 read 3 lines", "rank 2 knows rank 0 read 3 lines");
    }

    @Test
    void sigusr1AndSigusr2ReachEveryRankAndTheJobGoesOn() throws Exception {
        Path done = home.resolve("done");
        try (LiveJob job = new LiveJob(new Jmca(home).start(jmpirun("-np", "3", "-cp", Jmca.PROGRAMS.toString(),
                "org.jmca.tests.programs.Failing", "signals", done.toString())))) {
            assertSignalsReachEveryRank(job, 3);
            Files.createFile(done);
            assertThat(job.waitFor(60)).as(String.join("\n", job.err)).isZero();
        }
    }

    /** Issue 36: a jmpirun killed with SIGKILL leaves nothing: its ranks end, and its reaper removes the session directory. */
    @Test
    void aJmpirunKilledWithSigkillLeavesNoRankAndNoSessionDirectory() throws Exception {
        KilledJob killed = killJmpirun(false);
        LiveJob.until(() -> Files.notExists(killed.session()), () -> killed.session() + " is still there");
    }

    /** Issue 33: where the reaper was killed too, the next jmpirun removes what the killed one left. */
    @Test
    void theNextJobRemovesTheSessionDirectoryOfAJmpirunKilledWithSigkillWithItsReaper() throws Exception {
        KilledJob killed = killJmpirun(true);
        assertThat(killed.session()).as("the session directory of a jmpirun killed with its reaper").exists();
        Jmca.Result next = new Jmca(home).mpirun(1, "OneAllreduce", List.of(), "4");
        assertThat(next.status()).as(next.err()).isZero();
        assertThat(killed.session()).as("the killed jmpirun's session directory").doesNotExist();
    }

    private record KilledJob(Path session) {
    }

    /** Starts 2 waiting ranks, kills jmpirun (and its reaper first if asked) with SIGKILL, and waits for the ranks to end. */
    private KilledJob killJmpirun(boolean reaperToo) throws Exception {
        Path session;
        List<Long> ranks;
        try (LiveJob job = new LiveJob(new Jmca(home).start(jmpirun("-np", "2", "-cp", Jmca.PROGRAMS.toString(),
                "org.jmca.tests.programs.Failing", "wait", home.resolve("never").toString())))) {
            ranks = LiveJob.await(job.out, l -> l.matches("rank \\d+ pid \\d+"), 2, "pids").stream()
                    .map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toList();
            String prefix = "jmca-" + job.process.pid() + "-";
            try (var entries = Files.list(Path.of("/dev/shm"))) {
                session = entries.filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst()
                        .orElseThrow(() -> new AssertionError("no session directory " + prefix + "* in /dev/shm"));
            }
            if (reaperToo) {
                ProcessHandle reaper = job.process.children().filter(child -> child.info().arguments()
                        .map(a -> List.of(a).contains(session.toString())).orElse(false)).findFirst()
                        .orElseThrow(() -> new AssertionError("no reaper of " + session + " among jmpirun's children"));
                reaper.destroyForcibly();
                reaper.onExit().join();
            }
            new ProcessBuilder("kill", "-KILL", String.valueOf(job.process.pid())).start().waitFor();
            job.process.waitFor();
        }
        for (long pid : ranks) {
            ProcessHandle.of(pid).ifPresent(rank -> rank.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS)
                    .join());
        }
        return new KilledJob(session);
    }

    /** Sends SIGUSR1, then SIGUSR2, to jmpirun and waits until each of the {@code size} ranks printed that it got them. */
    static void assertSignalsReachEveryRank(LiveJob job, int size) throws IOException, InterruptedException {
        LiveJob.await(job.out, l -> l.matches("rank \\d+ pid \\d+"), size, "pids");
        for (String signal : List.of("USR1", "USR2")) {
            Process kill = new ProcessBuilder("kill", "-s", signal, String.valueOf(job.process.pid())).inheritIO().start();
            assertThat(kill.waitFor()).isZero();
            LiveJob.await(job.out, l -> l.matches("rank \\d+ got SIG" + signal), size, "SIG" + signal + " at every rank");
        }
        assertThat(job.process.isAlive()).as("the job goes on after the signals").isTrue();
    }

    @Test
    void aRankThatNeverReachesTheExchangeEndsTheJobAfterTheTimeout() {
        Jmca.Result result = new Jmca(home).exec(jmpirun("-np", "3", "--wireup-timeout", "2", "-cp",
                Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Launching", "late", "1", "60"));
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("jmpirun: rank(s) 1 did not reach MPI.Init's wire-up exchange within 2 s"
                + " (--wireup-timeout); stopping the job"); // rank 1 would reach it after 60 s
    }

    @Test
    void dashJarRunsTheJarsMainClass() throws IOException {
        Path jar = home.resolve("hello.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "examples.Hello");
        Path classes = Jmca.ROOT.resolve("examples/target/classes/examples/Hello.class");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new JarEntry("examples/Hello.class"));
            out.write(Files.readAllBytes(classes));
            out.closeEntry();
        }
        Jmca.Result result = new Jmca(home).exec(jmpirun("-np", "2", "-jar", jar.toString()));
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).hasSize(2).allMatch(l -> l.matches("Hello from rank [01] of 2 on .*"));
    }

    @Test
    void ranksNoBtlConnectsFailAtInitWithTheReason() {
        Jmca.Result result = new Jmca(home).mpirun(2, "Wildcards", List.of("--mca", "btl", "self"));
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("jmca: MPI.Init failed: pml/ob1: no selected BTL reaches rank(s)")
                .contains("selected BTLs: self");
    }

    /** Issue 33: a transport the user named that declined is named in the error, with its reason. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"gm", "lapi"})
    void aNamedTransportThatCannotRunHereIsNamedInTheErrorWithItsReason(String btl) {
        Jmca.Result result = new Jmca(home).mpirun(2, "Wildcards", List.of("--mca", "btl", "self," + btl));
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err().lines().filter(l -> l.startsWith("jmca: MPI.Init failed: pml/ob1: no selected BTL")))
                .isNotEmpty().allMatch(l -> l.contains("; btl/" + btl + " was asked for (btl=self," + btl
                        + ", command line --mca btl) but cannot run here: no "), result.err());
    }

    @Test
    void aLaunchAgentThatFailsEndsTheJobAtOnceSayingSo() {
        Jmca.Result result = new Jmca(home).exec(jmpirun("-H", "nosuchhost:1", "--mca", "plm_rsh_agent", "false",
                "-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Launching"));
        assertThat(result.status()).isEqualTo(1);
        // the agent's failure, not the wire-up timeout (60 s) that would end it otherwise
        assertThat(result.err()).contains("jmpirun: the daemon of host nosuchhost could not be started: the launch"
                + " agent false nosuchhost exited with status 1").doesNotContain("wire-up exchange within");
    }

    @Test
    void usageErrorsAreExplained() {
        Jmca.Result noProgram = new Jmca(home).exec(jmpirun("-np", "2"));
        assertThat(noProgram.status()).isEqualTo(1);
        assertThat(noProgram.err()).contains("no program given");
        Jmca.Result noNp = new Jmca(home).exec(jmpirun("examples.Hello"));
        assertThat(noNp.status()).isEqualTo(1);
        assertThat(noNp.err()).contains("jmpirun: error: no number of processes: give -np N");
        Jmca.Result help = new Jmca(home).exec(jmpirun("--help"));
        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("--mca", "--tag-output", "--wireup-timeout");
    }
}
