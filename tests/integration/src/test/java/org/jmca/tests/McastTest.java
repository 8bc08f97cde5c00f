package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * coll/mcast through the real launcher: random broadcasts on the world, a split and a dup, with
 * loss, duplication and reordering injected, in every reliability scheme, on one host (every rank
 * on the multicast, over UDP and over UD multicast on the software verbs device) and on three
 * namespace hosts (SMP-aware, block and cyclic placement); a rank that dies in a broadcast; the
 * reasons it declines; a bad parameter.
 */
class McastTest {
    private static final Pattern COUNTERS = Pattern.compile(
            "rank (\\d+) mcast datagrams=(\\d+) retransmissions=(\\d+) acks=(\\d+) nacks=(\\d+) duplicates=(\\d+)"
                    + " fallbacks=(\\d+) credit_requests=(\\d+) overruns=(\\d+)");

    @TempDir
    Path home;

    private static List<String> mcast(String reliability, double drop, String... more) {
        List<String> flags = new ArrayList<>(List.of("--mca", "coll_mcast_enable", "1",
                "--mca", "coll_mcast_reliability", reliability, "--mca", "coll_mcast_drop_rate", String.valueOf(drop)));
        if (drop > 0) {
            flags.addAll(List.of("--mca", "coll_mcast_dup_rate", "0.02", "--mca", "coll_mcast_reorder_rate", "0.02"));
        }
        flags.addAll(List.of(more));
        return flags;
    }

    /**
     * Every rank passed, and the counters added up over the ranks: datagrams, retransmissions,
     * acks, nacks, duplicates, fallbacks, credit requests, overruns.
     */
    private static long[] passedWithCounters(Jmca.Result result, int ranks) {
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS mcast")).hasSize(ranks);
        long[] total = new long[8];
        for (String line : result.outLines()) {
            Matcher m = COUNTERS.matcher(line);
            if (m.matches()) {
                for (int i = 0; i < total.length; i++) {
                    total[i] += Long.parseLong(m.group(i + 2));
                }
            }
        }
        return total;
    }

    private static void assertRecovered(long[] counters, String reliability, double drop) {
        assertThat(counters[0]).as("datagrams").isPositive();
        assertThat(counters[5]).as("fallbacks (messages above coll_mcast_max_size)").isPositive();
        if (drop > 0) {
            assertThat(counters[1]).as("retransmissions").isPositive();
        }
        if (reliability.equals("nack") && drop > 0) {
            assertThat(counters[3]).as("nacks").isPositive();
        }
    }

    @ParameterizedTest(name = "{0}, {1} dropped, one host, {2} credits")
    @CsvSource({"ack, 0.01, 0", "coroot, 0.05, 0", "coroot, 0.01, 2", "nack, 0.01, 0", "nack, 0.05, 0"})
    void everyBroadcastArrivesWholeOnOneHost(String reliability, double drop, int credits) {
        Jmca.Result result = new Jmca(home).mpirun(4, "McastBcasts", mcast(reliability, drop,
                "--mca", "coll_mcast_smp_aware", "0", "--mca", "coll_mcast_credits", String.valueOf(credits)), "150", "3");
        long[] counters = passedWithCounters(result, 4);
        assertRecovered(counters, reliability, drop);
        if (credits > 0) {
            assertThat(counters[6]).as("credit requests (roots out of credit asking)").isPositive();
            assertThat(counters[7]).as("overruns (datagrams a receiver had no room for)").isZero();
        }
    }

    @ParameterizedTest(name = "{0}, {1} dropped, UD multicast on the software verbs device")
    @CsvSource({"ack, 0.05"})
    void everyBroadcastArrivesWholeOverUdMulticastOnTheSoftVerbsDevice(String reliability, double drop) {
        Jmca.Result result = new Jmca(home).mpirun(4, "McastBcasts", mcast(reliability, drop,
                "--mca", "coll_mcast_smp_aware", "0", "--mca", "coll_mcast_carrier", "verbs",
                "--mca", "btl", "self,sm,verbs", "--mca", "btl_verbs_device", "soft", "--mca", "coll_base_verbose", "1"),
                "150", "4");
        assertRecovered(passedWithCounters(result, 4), reliability, drop);
        assertThat(result.err()).contains("bcast: mcast (multicast up to 65536 B", "on UD multicast on the verbs device");
    }

    @Test
    void aRankThatDiesInABroadcastEndsTheJobNamingIt() {
        Jmca.Result result = new Jmca(home).mpirun(4, "McastBcasts",
                mcast("ack", 0, "--mca", "coll_mcast_smp_aware", "0"), "100", "5", "20");
        assertThat(result.status()).isNotZero();
        String halted = result.outLines().stream().filter(l -> l.contains("halts as the root")).findFirst()
                .orElseThrow(() -> new AssertionError("no rank halted: " + result.out()));
        String rank = halted.split(" ")[1];
        assertThat(result.err()).contains("rank " + rank + " (pid"); // the death ended it, not a timeout
    }

    @Test
    void itDeclinesSayingWhyAndTheJobRunsOnCollTuned() {
        Jmca.Result oneHost = new Jmca(home).mpirun(3, "McastBcasts",
                List.of("--mca", "coll_mcast_enable", "1", "--mca", "coll_base_verbose", "1"), "10", "1");
        assertThat(oneHost.status()).as(oneHost.err()).isZero();
        assertThat(oneHost.err()).contains("coll/mcast: declined: all 3 ranks are on host",
                "shared memory serves them (coll_mcast_smp_aware 0 multicasts anyway)", "bcast: sm");

        Jmca.Result off = new Jmca(home).mpirun(2, "McastBcasts", List.of("--mca", "coll_base_verbose", "1"), "5", "1");
        assertThat(off.err()).contains("coll/mcast: declined: off (--mca coll_mcast_enable 1 turns it on)");

        Jmca.Result noMulticast = new Jmca(home).mpirun(2, "McastBcasts", List.of("--mca", "coll_mcast_enable", "1",
                "--mca", "coll_mcast_smp_aware", "0", "--mca", "coll_mcast_if_include", "lo",
                "--mca", "coll_base_verbose", "1"), "10", "1");
        assertThat(noMulticast.status()).as(noMulticast.err()).isZero();
        assertThat(noMulticast.err()).contains("coll/mcast: declined: coll_mcast_if_include=lo", "multicast");

        Jmca.Result noVerbs = new Jmca(home).mpirun(2, "McastBcasts", List.of("--mca", "coll_mcast_enable", "1",
                "--mca", "coll_mcast_smp_aware", "0", "--mca", "coll_mcast_carrier", "verbs",
                "--mca", "coll_base_verbose", "1"), "10", "1");
        assertThat(noVerbs.status()).as(noVerbs.err()).isZero();
        assertThat(noVerbs.err()).contains("coll/mcast: declined: coll_mcast_carrier=verbs (command line",
                "btl/verbs is not running in this process");
    }

    @Test
    void aBadParameterStopsTheJobNamingItsValueAndSource() {
        Jmca.Result result = new Jmca(home).mpirun(2, "McastBcasts", List.of("--mca", "coll_mcast_enable", "1",
                "--mca", "coll_mcast_smp_aware", "0", "--mca", "coll_mcast_ack_every", "40"), "5", "1");
        assertThat(result.status()).isNotZero();
        assertThat(result.err()).contains("coll_mcast_ack_every=40 (command line", "coll_mcast_window=32");
    }

    /** Three namespace hosts x 2 ranks: one leader per host on the multicast, shared memory inside a host. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AcrossHosts {
        private NamespaceHosts hosts;

        @BeforeAll
        void makeHosts() throws IOException {
            hosts = NamespaceHosts.orSkip("McastTest.AcrossHosts", 3);
        }

        @AfterAll
        void removeHosts() {
            if (hosts != null) {
                hosts.close();
            }
        }

        @ParameterizedTest(name = "{0}, {1} dropped, --map-by {2}")
        @CsvSource({"ack, 0.05, slot", "coroot, 0.05, node", "nack, 0.05, slot"})
        void everyBroadcastArrivesWholeAcrossHosts(String reliability, double drop, String mapBy) {
            List<String> line = mcast(reliability, drop, "--mca", "plm_rsh_agent", "ip netns exec",
                    "--host", hosts.hostList(2), "--map-by", mapBy, "--mca", "btl_tcp_if_include", "10.77.0.0/16");
            line.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.McastBcasts", "150", "9"));
            Jmca.Result result = new Jmca(home).run("jmpirun", line.toArray(String[]::new));
            assertRecovered(passedWithCounters(result, 6), reliability, drop);
        }

        /** Every collective (alltoall through the leaders, allreduce as reduce + multicast) checked, with loss. */
        @ParameterizedTest(name = "--map-by {0}")
        @CsvSource({"node"})
        void theCollectivesProgramPassesWithCollMcast(String mapBy) {
            List<String> line = mcast("ack", 0.02, "--mca", "plm_rsh_agent", "ip netns exec", "--host",
                    hosts.hostList(2), "--map-by", mapBy, "--mca", "btl_tcp_if_include", "10.77.0.0/16",
                    "--mca", "coll_base_verbose", "1");
            line.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Collectives", "20000"));
            Jmca.Result result = new Jmca(home).run("jmpirun", line.toArray(String[]::new));
            assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
            assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS")).hasSize(6);
            assertThat(result.err()).contains("MPI_COMM_WORLD: coll: alltoall: mcast (through one leader per host",
                    "MPI_COMM_WORLD: coll: bcast: mcast (multicast up to", "allreduce: mcast (reduce, then multicast");
        }
    }
}
