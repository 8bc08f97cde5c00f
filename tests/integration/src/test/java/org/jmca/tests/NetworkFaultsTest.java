package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of the network between two hosts (network namespaces joined by veth links, see
 * {@link NamespaceHosts}): loss, delay and reordering on the links (netem), which TCP recovers
 * from, so the job completes; a link that goes down for a moment and comes back, the same; a
 * link that stays down, a host daemon stopped with SIGSTOP, and jmpirun killed, which end the job
 * within its {@code --timeout} (or at once) and leave nothing on either host. Each case appends
 * a line to {@code target/fault-injection.csv}, as {@link FaultInjectionTest}'s do.
 */
class NetworkFaultsTest {
    private static final int TIMEOUT_SECONDS = 8;
    private static NamespaceHosts hosts;

    @TempDir
    Path home;

    @BeforeAll
    static void makeHosts() throws IOException {
        hosts = NamespaceHosts.orSkip("NetworkFaultsTest", 2);
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /** Every link as it was: up, no netem, no dropping. */
    @AfterEach
    void healLinks() throws IOException {
        for (String host : hosts.names()) {
            inside(host, "ip", "link", "set", "eth0", "up");
            for (List<String> undo : List.of(List.of("tc", "qdisc", "del", "dev", "eth0", "root"),
                    List.of("nft", "delete", "table", "inet", "jmcaloss"))) {
                try {
                    inside(host, undo.toArray(String[]::new));
                } catch (IOException e) {
                    // nothing of that kind there
                }
            }
        }
    }

    private static void inside(String host, String... command) throws IOException {
        List<String> line = new ArrayList<>(List.of("ip", "netns", "exec", host));
        line.addAll(List.of(command));
        NamespaceHosts.run(line.toArray(String[]::new));
    }

    /** 4 ranks, 2 on each host, over tcp between the hosts (sm within one). */
    private LiveJob start(List<String> flags, String program, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(),
                "--mca", "plm_rsh_agent", "ip netns exec", "--host", hosts.hostList(2), "--mca", "btl", "self,sm,tcp"));
        command.addAll(flags);
        command.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs." + program));
        command.addAll(List.of(args));
        return new LiveJob(new Jmca(home).start(command));
    }

    private static void awaitPids(LiveJob job) {
        LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 4, "pids");
    }

    /** 3 % of the packets each host sends and receives dropped (nftables): TCP retransmits, the job completes. */
    @Test
    void lossOnTheLinksSlowsTheJobButItCompletes() throws Exception {
        String why = Packages.ensure("nftables");
        Assumptions.assumeTrue(why == null, why);
        for (String host : hosts.names()) {
            inside(host, "nft", "add", "table", "inet", "jmcaloss");
            for (String hook : List.of("input", "output")) {
                inside(host, "nft", "add", "chain", "inet", "jmcaloss", hook, "{ type filter hook " + hook
                        + " priority 0; }");
                inside(host, "nft", "add", "rule", "inet", "jmcaloss", hook, "numgen", "random", "mod", "100", "<", "3",
                        "counter", "drop");
            }
        }
        completesDespite("LOSS_3_PERCENT");
        long dropped = 0;
        for (String host : hosts.names()) {
            String rules = NamespaceHosts.run("ip", "netns", "exec", host, "nft", "list", "table", "inet", "jmcaloss");
            java.util.regex.Matcher packets = java.util.regex.Pattern.compile("packets (\\d+)").matcher(rules);
            while (packets.find()) {
                dropped += Long.parseLong(packets.group(1));
            }
        }
        assertThat(dropped).as("packets dropped on the links").isPositive();
    }

    /**
     * Delay and reordering (netem) on the links: TCP reorders, the job completes. Skipped, saying
     * so, where the kernel has no netem (as in a container without sch_netem).
     */
    @Test
    void delayAndReorderingOnTheLinksSlowTheJobButItCompletes() throws Exception {
        try {
            for (String host : hosts.names()) {
                inside(host, "tc", "qdisc", "add", "dev", "eth0", "root", "netem", "delay", "2ms", "1ms", "reorder",
                        "10%", "50%");
            }
        } catch (IOException e) {
            System.err.println("NetworkFaultsTest: delay and reordering are not tested here: " + e.getMessage());
            Assumptions.abort("no netem in this kernel: " + e.getMessage());
        }
        completesDespite("NETEM_DELAY_REORDER");
    }

    private void completesDespite(String fault) throws Exception {
        Leftovers before = Leftovers.before();
        long start = System.nanoTime();
        try (LiveJob job = start(List.of(), "RandomStress", "300")) {
            int status = job.waitFor(120);
            assertThat(status).as("stderr: %s", job.err).isZero();
            assertThat(job.out).filteredOn(l -> l.startsWith("PASS")).isNotEmpty();
            FaultInjectionTest.record(fault, "RUN", "TCP_HOSTS", status, System.nanoTime() - start,
                    System.nanoTime() - start);
        }
        before.awaitNone();
    }

    /**
     * Down for 1.5 s after MPI.Init, in the middle of the ranks' collectives (150 rounds take 4-5 s
     * here): TCP retransmits, the job completes.
     */
    @Test
    void aLinkDownForAMomentDelaysTheJobButItCompletes() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = start(List.of(), "Failing", "collectives", "150")) {
            awaitPids(job);
            long down = System.nanoTime();
            inside(hosts.names().get(1), "ip", "link", "set", "eth0", "down");
            Thread.sleep(1500);
            inside(hosts.names().get(1), "ip", "link", "set", "eth0", "up");
            int status = job.waitFor(120);
            assertThat(status).as("stderr: %s", job.err).isZero();
            FaultInjectionTest.record("LINK_DOWN_1500MS", "COLLECTIVE", "TCP_HOSTS", status, System.nanoTime() - down,
                    System.nanoTime() - down);
        }
        before.awaitNone();
    }

    /** In {@code bench/fault-matrix} only: it ends as a stopped daemon's job does, below, through the same stop. */
    @Test
    void aLinkThatStaysDownEndsTheJobAtItsTimeoutAndLeavesNothing() throws Exception {
        Assumptions.assumeTrue("all".equals(System.getProperty("jmca.faults")), "run by bench/fault-matrix");
        Leftovers before = Leftovers.before();
        try (LiveJob job = start(List.of("--timeout", String.valueOf(TIMEOUT_SECONDS)), "Failing", "collectives")) {
            awaitPids(job);
            long fault = System.nanoTime();
            inside(hosts.names().get(1), "ip", "link", "set", "eth0", "down");
            int status = job.waitFor(60);
            long ended = System.nanoTime();
            assertThat(status).isEqualTo(124);
            assertThat(String.join("\n", job.err)).contains("jmpirun: the job ran longer than --timeout "
                    + TIMEOUT_SECONDS + " s");
            before.awaitNone();
            FaultInjectionTest.record("LINK_DOWN", "COLLECTIVE", "TCP_HOSTS", status, ended - fault,
                    System.nanoTime() - fault);
        }
    }

    /** In {@code bench/fault-matrix} only, its 17 s are mostly the limit and the stop's grace. */
    @Test
    void aStoppedHostDaemonEndsTheJobAtItsTimeoutAndLeavesNothing() throws Exception {
        Assumptions.assumeTrue("all".equals(System.getProperty("jmca.faults")), "run by bench/fault-matrix");
        Leftovers before = Leftovers.before();
        try (LiveJob job = start(List.of("--timeout", String.valueOf(TIMEOUT_SECONDS)), "Failing", "collectives")) {
            awaitPids(job);
            ProcessHandle daemon = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                    .map(c -> c.contains("HostDaemon") && c.contains(".host1")).orElse(false)).findFirst().orElseThrow();
            long fault = System.nanoTime();
            FaultInjectionTest.signal("STOP", daemon.pid());
            int status = job.waitFor(60);
            long ended = System.nanoTime();
            assertThat(status).as("stderr: %s", job.err).isEqualTo(124);
            before.awaitNone();
            FaultInjectionTest.record("STOP_DAEMON", "COLLECTIVE", "TCP_HOSTS", status, ended - fault,
                    System.nanoTime() - fault);
        }
    }

    @Test
    void jmpirunKilledLeavesNoRankNoDaemonAndNothingInDevShmOnEitherHost() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = start(List.of(), "Failing", "collectives")) {
            awaitPids(job);
            long fault = System.nanoTime();
            FaultInjectionTest.signal("KILL", job.process.pid());
            int status = job.waitFor(30);
            long ended = System.nanoTime();
            assertThat(status).isEqualTo(137);
            before.awaitNone();
            FaultInjectionTest.record("KILL_JMPIRUN", "COLLECTIVE", "TCP_HOSTS", status, ended - fault,
                    System.nanoTime() - fault);
        }
    }
}
