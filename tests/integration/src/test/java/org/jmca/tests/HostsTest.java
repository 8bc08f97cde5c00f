package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Jobs across hosts: three network namespaces joined by a bridge, each a host with an address of
 * its own, reached by jmpirun through {@code ip netns exec} as the launch agent. Sm carries what
 * stays on a host, tcp what crosses hosts. Skipped, saying why, where namespaces cannot be made.
 */
class HostsTest {
    private static NamespaceHosts hosts;

    @TempDir
    Path home;

    @BeforeAll
    static void makeHosts() throws IOException {
        hosts = NamespaceHosts.orSkip("HostsTest", 3);
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    private static List<String> across(String... more) {
        List<String> flags = new ArrayList<>(List.of("--mca", "plm_rsh_agent", "ip netns exec",
                "--host", hosts.hostList(2)));
        flags.addAll(List.of(more));
        return flags;
    }

    private Jmca.Result run(String program, List<String> flags, String... args) {
        List<String> line = new ArrayList<>(flags);
        line.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs." + program));
        line.addAll(List.of(args));
        return new Jmca(home).run("jmpirun", line.toArray(String[]::new));
    }

    /**
     * The programs on 3 hosts x 2 ranks: those whose traffic crosses hosts differently by mapping,
     * mapped by slot and by node; the point-to-point ones by node, where every peer is on another
     * host (by slot, half their traffic is over sm, which runs them elsewhere). Wildcards, UnexpectedAndProbe and BadInput test pml/ob1's matching and
     * argument checks, the same whichever host a peer is on: Wildcards runs across the hosts in
     * {@link #ranksOnOneHostTalkOverSmAndOverTcpAcrossHosts}, the others over sm and tcp elsewhere.
     */
    @ParameterizedTest(name = "{0}, --map-by {2}")
    @CsvSource({
        "MixedSizesPair,     '',     node, 1",
        "Nonblocking,        '',     node, 1",
        "Semantics,          '',     node, 1",
        "Collectives,        '',     slot, 6", "Collectives,        '',     node, 6",
        "RandomStress,       2000,   slot, 6", "RandomStress,       2000,   node, 6",
        "OneAllreduce,       100000, node, 6",
    })
    void theProgramPassesAcrossThreeHosts(String program, String argument, String mapBy, int passes) {
        Jmca.Result result = run(program, across("--map-by", mapBy), argument.isEmpty() ? new String[0]
                : new String[] {argument});
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(passes);
    }

    @Test
    void collSmServesEachHostOnSharedMemoryAndTheLeadersBetweenThem() {
        Jmca.Result result = run("OneAllreduce", across("--map-by", "node", "--mca", "coll_base_verbose", "2"), "10");
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.err()).contains("MPI_COMM_WORLD: coll: allreduce: sm (two levels: shared memory on each of 3"
                + " hosts, the leaders by 3 (recursive_doubling)", "coll:sm: allreduce of 40 B on 6 ranks: two levels"
                + " (3 hosts)", "MPI_COMM_WORLD: coll: alltoall: tuned");
    }

    @Test
    void ranksOnOneHostTalkOverSmAndOverTcpAcrossHosts() {
        Jmca.Result result = run("Wildcards", across("--map-by", "node", "--mca", "pml_ob1_verbose", "1",
                "--report-bindings"));
        assertThat(result.status()).as(result.err()).isZero();
        List<String> names = hosts.names();
        assertThat(result.err()).contains("rank 0 reaches rank 3 through btl/sm", "rank 0 reaches rank 1 through btl/tcp",
                "jmpirun: rank 0 on host " + names.get(0), "jmpirun: rank 1 on host " + names.get(1),
                "jmpirun: rank 5 on host " + names.get(2));
    }

    @Test
    void aHostfileMinusNExportsAndOutputFilesWorkAsInOpenMpi() throws IOException {
        Path hostfile = home.resolve("hosts");
        Files.writeString(hostfile, "# two of the three\n" + hosts.names().get(0) + " slots=2\n"
                + hosts.names().get(2) + " slots=4\n");
        Path outputs = home.resolve("out");
        Jmca.Result result = run("Launching", List.of("--mca", "plm_rsh_agent", "ip netns exec",
                "--hostfile", hostfile.toString(), "-N", "1", "-x", "JMCA_TEST_VALUE=42",
                "--output-filename", outputs.toString()), "env", "JMCA_TEST_VALUE");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).containsExactlyInAnyOrder("rank 0 of 2 on " + hosts.names().get(0)
                + ": JMCA_TEST_VALUE=42", "rank 1 of 2 on " + hosts.names().get(2) + ": JMCA_TEST_VALUE=42");
        assertThat(Files.readString(outputs.resolve("1/rank.1/stdout"))).isEqualTo("rank 1 of 2 on "
                + hosts.names().get(2) + ": JMCA_TEST_VALUE=42\n");
    }

    @Test
    void moreRanksThanSlotsIsAnErrorUnlessOversubscribed() {
        Jmca.Result refused = run("Launching", across("-np", "7"), "env", "HOME");
        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.err()).contains("there are not enough slots for the 7 ranks requested",
                "--oversubscribe");
        Jmca.Result allowed = run("Launching", across("-np", "7", "--oversubscribe"), "env", "HOME");
        assertThat(allowed.status()).as(allowed.err()).isZero();
        assertThat(allowed.outLines()).hasSize(7);
    }

    /** Starts {@code Failing MODE FILE} across the hosts: its ranks wait until FILE exists. */
    private LiveJob startWaiting(String mode, Path file) throws IOException {
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString()));
        command.addAll(across());
        command.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing", mode,
                file.toString()));
        return new LiveJob(new Jmca(home).start(command));
    }

    @Test
    void sigusr1AndSigusr2ReachTheRanksOfEveryHost() throws Exception {
        Path done = home.resolve("done");
        try (LiveJob job = startWaiting("signals", done)) {
            LauncherTest.assertSignalsReachEveryRank(job, 6);
            Files.createFile(done);
            assertThat(job.waitFor(60)).as(String.join("\n", job.err)).isZero();
        }
    }

    @Test
    void killingARankOnARemoteHostEndsTheJobNamingRankAndHostAndLeavesNothing() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = startWaiting("wait", home.resolve("never"))) {
            List<String> pids = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 6, "pids");
            long victim = pids.stream().filter(l -> l.startsWith("rank 3 ")).map(l -> Long.parseLong(l.split(" ")[3]))
                    .findFirst().orElseThrow();
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();
            int status = job.waitFor(30); // a bound against a hang; the cause is what the message says
            assertThat(String.join("\n", job.err)).contains("jmpirun: rank 3 on host " + hosts.names().get(1)
                    + " (pid " + victim + ") was killed by signal 9 (SIGKILL); stopping the job");
            assertThat(status).isEqualTo(137);
            before.assertNone();
        }
    }

    @Test
    void killingARemoteDaemonEndsTheJobNamingTheHostAndLeavesNothing() throws Exception {
        Leftovers before = Leftovers.before();
        try (LiveJob job = startWaiting("wait", home.resolve("never"))) {
            LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 6, "pids");
            ProcessHandle daemon = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                    .map(c -> c.contains("HostDaemon") && c.contains(".host1")).orElse(false)).findFirst().orElseThrow();
            daemon.destroyForcibly();
            int status = job.waitFor(30); // a bound against a hang; the cause is what the message says
            assertThat(String.join("\n", job.err)).contains("jmpirun: the daemon on host " + hosts.names().get(1)
                    + " (pid " + daemon.pid() + ") is gone, and with it rank(s) 2, 3; stopping the job");
            assertThat(status).isEqualTo(1);
            before.assertNone();
        }
    }

    @Test
    void closingTheHostsRemovesTheirNamespaces() throws IOException {
        try (NamespaceHosts extra = new NamespaceHosts(1)) {
            List<String> names = extra.names();
            assertThat(NamespaceHosts.leftovers()).containsAll(names);
            extra.close();
            assertThat(NamespaceHosts.leftovers()).doesNotContainAnyElementsOf(names);
        }
    }
}
