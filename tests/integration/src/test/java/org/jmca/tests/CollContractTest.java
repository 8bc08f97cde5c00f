package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jmca.launch.MpiJob;
import org.jmca.launch.RankFailedException;
import org.jmca.tests.programs.CollectiveContract;
import org.jmca.tests.programs.Intercomms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collective contract: {@link CollectiveContract} (every collective of an intracommunicator,
 * blocking, non-blocking and in place, at counts 1, 7 and 70000, from three roots, with eight
 * predefined reductions and a non-commutative one, each result checked element by element) runs on
 * every coll component: the program's own checks pass on every rank (no FAIL line, a PASS line
 * with a count of checks), MPI_COMM_WORLD's table (coll_base_verbose=1) gives each collective to the
 * component expected, and the per-call report (coll_base_verbose=2) shows the component under test
 * served calls of every collective it implements itself - a contract that silently ran on coll/basic
 * would prove nothing. Each case supplies only how its component is selected ({@code coll} lists
 * the components, as the class path of this JVM holds the example plug-in's coll/gatherall, which
 * thread ranks would otherwise find); what a component does not implement goes to the next one down,
 * as asserted:
 *
 * <ul>
 *   <li><b>coll/self</b> ({@code coll=self,basic}, 1 rank): every collective.
 *   <li><b>coll/basic</b> ({@code coll=basic,self}): every collective; linear up to
 *       {@code coll_basic_crossover} ranks, logarithmic above (its 4-rank job sets the crossover to 2).
 *   <li><b>coll/tuned</b> ({@code coll=tuned,basic,self}): every collective but gatherv and scatterv,
 *       which coll/basic serves.
 *   <li><b>coll/sm</b> ({@code coll=sm,tuned,basic,self}, thread ranks and processes): barrier,
 *       bcast, reduce, allreduce, gather, scatter, allgather, alltoall, reduce_scatter_block, scan and
 *       exscan, up to {@code coll_sm_slot_size} (32 KiB) in a rank's slot; larger calls of those (the
 *       large count) and allgatherv, alltoallv and reduce_scatter go to coll/tuned, gatherv and
 *       scatterv to coll/basic.
 *   <li><b>coll/gm</b> ({@code btl=self,gm btl_gm_device=emulated coll=gm,self}): every collective.
 *       Processes only: the emulated GM NIC is one per process, and coll/gm declines thread ranks.
 *   <li><b>coll/mcast</b> ({@code coll=mcast,sm,tuned,basic,self coll_mcast_enable=1
 *       coll_mcast_smp_aware=0}, every rank on the multicast, as McastTest runs it on one host):
 *       bcast, and allreduce as a reduce by the component below then a multicast, up to
 *       {@code coll_mcast_max_size} (64 KiB), larger ones by the component below; alltoall only when
 *       SMP-aware; the rest is coll/sm's table.
 *   <li><b>coll/inter</b>, the only component that serves intercommunicators: its own contract,
 *       {@link #everyCollectiveBetweenTwoGroupsGivesMpisResultOnCollInter}.
 * </ul>
 *
 * <p>Thread ranks in this JVM wherever the component works with them (a job takes a second or
 * two), processes for coll/gm and for one coll/sm job; 2, 3 and 4 ranks (1 for coll/self).
 */
class CollContractTest {
    /**
     * The large count, in ints: 280000 B, past btl/thread's and btl/sm's eager limits (4 KiB),
     * coll/sm's slot (32 KiB), coll/gm's eager limit (64 KiB) and RDMA pipeline block (128 KiB) and
     * coll/mcast's largest multicast (64 KiB).
     */
    private static final String LARGE = "70000";
    private static final List<String> FUNCTIONS = List.of("allgather", "allgatherv", "allreduce", "alltoall",
            "alltoallv", "barrier", "bcast", "exscan", "gather", "gatherv", "reduce", "reduce_scatter",
            "reduce_scatter_block", "scan", "scatter", "scatterv");
    private static final Set<String> SM = Set.of("barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
            "allgather", "alltoall", "reduce_scatter_block", "scan", "exscan");
    private static final Pattern PASS = Pattern.compile("PASS (\\d+) checks on rank (\\d+)");
    private static final Pattern TABLE = Pattern.compile("jmca: rank 0: MPI_COMM_WORLD: coll: ([a-z_]+): ([a-z]+) .*");

    /**
     * One component's job: how it is selected, which component MPI_COMM_WORLD's table gives each
     * collective, the words of the per-call report for a call the component under test served itself
     * (which must appear for each collective it serves), and other words the report must hold.
     */
    record Case(String component, int ranks, boolean threads, Map<String, String> mca, Map<String, String> table,
                String servedWords, List<String> alsoReported) {
        @Override
        public String toString() {
            return "coll/" + component + " on " + ranks + (threads ? " thread ranks" : " processes")
                    + (mca.containsKey("coll_basic_crossover") ? " (logarithmic)" : "");
        }

        List<String> servedByIt() {
            return table.entrySet().stream().filter(e -> e.getValue().equals(component)).map(Map.Entry::getKey)
                    .toList();
        }
    }

    /** Every function by {@code component}, but those {@code others} name ("fn=component"). */
    private static Map<String, String> table(String component, String... others) {
        Map<String, String> table = new TreeMap<>();
        FUNCTIONS.forEach(f -> table.put(f, component));
        for (String other : others) {
            String[] fc = other.split("=");
            table.put(fc[0], fc[1]);
        }
        return table;
    }

    /** coll/sm's table of a one-host job: its functions, then coll/tuned's, then coll/basic's. */
    private static Map<String, String> smTable() {
        Map<String, String> table = table("tuned", "gatherv=basic", "scatterv=basic");
        SM.forEach(f -> table.put(f, "sm"));
        return table;
    }

    private static Map<String, String> mca(String... pairs) {
        Map<String, String> mca = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            mca.put(pairs[i], pairs[i + 1]);
        }
        return mca;
    }

    static Stream<Case> components() {
        Map<String, String> tuned = table("tuned", "gatherv=basic", "scatterv=basic");
        Map<String, String> mcast = smTable();
        mcast.put("bcast", "mcast");
        mcast.put("allreduce", "mcast");
        Map<String, String> gm = mca("btl", "self,gm", "btl_gm_device", "emulated", "coll", "gm,self");
        Map<String, String> multicast = mca("coll", "mcast,sm,tuned,basic,self", "coll_mcast_enable", "1",
                "coll_mcast_smp_aware", "0");
        String algorithm = ": algorithm ";
        String flat = ": flat on shared memory";
        List<String> smHandsOver = List.of("ranks: coll/tuned serves it (");
        List<String> mcastHandsOver = List.of("(above coll_mcast_max_size=");
        return Stream.of(
                new Case("self", 1, true, mca("coll", "self,basic"), table("self"), algorithm, List.of()),
                new Case("basic", 2, true, mca("coll", "basic,self"), table("basic"), algorithm, List.of()),
                new Case("basic", 3, true, mca("coll", "basic,self"), table("basic"), algorithm, List.of()),
                new Case("basic", 4, true, mca("coll", "basic,self", "coll_basic_crossover", "2"), table("basic"),
                        algorithm, List.of("logarithmic above coll_basic_crossover")),
                new Case("tuned", 2, true, mca("coll", "tuned,basic,self"), tuned, algorithm, List.of()),
                new Case("tuned", 4, true, mca("coll", "tuned,basic,self"), tuned, algorithm, List.of()),
                new Case("sm", 2, true, mca("coll", "sm,tuned,basic,self"), smTable(), flat, smHandsOver),
                new Case("sm", 3, true, mca("coll", "sm,tuned,basic,self"), smTable(), flat, smHandsOver),
                new Case("sm", 4, true, mca("coll", "sm,tuned,basic,self"), smTable(), flat, smHandsOver),
                new Case("sm", 3, false, mca("coll", "sm,tuned,basic,self"), smTable(), flat, smHandsOver),
                new Case("gm", 2, false, gm, table("gm"), algorithm, List.of()),
                new Case("gm", 3, false, gm, table("gm"), algorithm, List.of()),
                new Case("mcast", 2, true, multicast, mcast, ": multicast", mcastHandsOver),
                new Case("mcast", 4, true, multicast, mcast, ": multicast", mcastHandsOver));
    }

    /** What a job printed, every rank's lines together. */
    private record Outcome(int status, List<String> out, List<String> err) {
        static Outcome of(MpiJob.Result result) {
            return new Outcome(result.status(), result.stdout().values().stream().flatMap(List::stream).toList(),
                    result.stderr().values().stream().flatMap(List::stream).toList());
        }
    }

    /**
     * Runs the contract with the verbose report at level 2. Processes too are started by the launch
     * API (jmpirun's launcher, in this JVM): it keeps each rank's lines, of which coll_base_verbose=2
     * writes hundreds.
     */
    private static Outcome run(Case c) throws Exception {
        return run((c.threads() ? MpiJob.threads(c.ranks()) : MpiJob.processes(c.ranks())).mca(c.mca()),
                CollectiveContract.class, LARGE);
    }

    private static Outcome run(MpiJob.Builder builder, Class<?> program, String... args) throws Exception {
        MpiJob job = builder.classPath(Jmca.PROGRAMS).mca("mpi_warmup_ms", "0").mca("coll_base_verbose", "2")
                .main(program.getName(), args).start();
        try {
            return Outcome.of(job.waitFor(Duration.ofMinutes(2)));
        } catch (RankFailedException e) {
            return Outcome.of(e.result());
        } finally {
            if (!job.isDone()) {
                job.cancel(); // a hung job must not leave its ranks running into the next case
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("components")
    void everyCollectiveGivesTheSequentialResultOnTheComponentThatServesIt(Case c) throws Exception {
        Outcome outcome = run(c);
        List<String> failures = outcome.out().stream().filter(l -> l.startsWith("FAIL")).toList();
        assertThat(failures).as("the contract's failures on %s", c).isEmpty();
        assertThat(outcome.status()).as("status of %s; stderr: %s", c, tail(outcome.err())).isZero();
        Map<Integer, Long> checks = new TreeMap<>();
        for (String line : outcome.out()) {
            Matcher m = PASS.matcher(line);
            if (m.matches()) {
                checks.put(Integer.parseInt(m.group(2)), Long.parseLong(m.group(1)));
            }
        }
        assertThat(checks).as("each rank's PASS line").hasSize(c.ranks())
                .allSatisfy((rank, n) -> assertThat(n).as("checks on rank %d", rank).isPositive());

        List<String> rank0 = outcome.err().stream().filter(l -> l.startsWith("jmca: rank 0: ")).toList();
        Map<String, String> table = new TreeMap<>();
        for (String line : rank0) {
            Matcher m = TABLE.matcher(line);
            if (m.matches()) {
                table.put(m.group(1), m.group(2));
            }
        }
        List<String> why = rank0.stream().filter(l -> l.contains("MPI_COMM_WORLD: coll: coll/")).toList();
        assertThat(table).as("which component serves each collective of MPI_COMM_WORLD; %s", why)
                .isEqualTo(c.table());
        for (String function : c.servedByIt()) {
            String prefix = "coll:" + c.component() + ": " + function + " of ";
            List<String> calls = rank0.stream().filter(l -> l.contains(prefix)).toList();
            assertThat(calls).as("rank 0's reports of %s calls that coll/%s served itself ('%s')", function,
                    c.component(), c.servedWords()).anyMatch(l -> l.contains(c.servedWords()));
        }
        for (String reported : c.alsoReported()) {
            assertThat(rank0.stream().anyMatch(l -> l.contains(reported))).as("rank 0 reported '%s'", reported)
                    .isTrue();
        }
    }

    /**
     * The contract between two groups: {@link Intercomms} (every collective of an intercommunicator
     * between the even and the odd world ranks, rooted ones from either group, reductions with a
     * non-commutative operation, each result computed again from the world ranks) passes on 3 thread
     * ranks (groups of 2 and 1), with coll/inter serving every collective MPI defines between
     * groups: the intercommunicator's table gives it each of them and no scan, and its per-call
     * report shows it served a call of each.
     */
    @Test
    void everyCollectiveBetweenTwoGroupsGivesMpisResultOnCollInter() throws Exception {
        Outcome outcome = run(MpiJob.threads(3), Intercomms.class);
        assertThat(outcome.status()).as("status; stderr: %s", tail(outcome.err())).isZero();
        assertThat(outcome.out()).as("each rank's PASS line")
                .contains("PASS intercomm rank 0", "PASS intercomm rank 1", "PASS intercomm rank 2");

        List<String> intercomm = outcome.err().stream().filter(l -> l.contains(" intercomm(99): coll")).toList();
        for (String function : FUNCTIONS) {
            boolean between = !function.endsWith("scan");
            assertThat(intercomm.stream().anyMatch(l -> l.endsWith("intercomm(99): coll: " + function
                    + ": inter (linear between the groups)"))).as("the intercommunicator's table gives %s to"
                    + " coll/inter", function).isEqualTo(between);
            assertThat(intercomm.stream().anyMatch(l -> l.contains("intercomm(99): coll:inter: " + function + " of ")))
                    .as("coll/inter served a call of %s", function).isEqualTo(between);
        }
        assertThat(intercomm).as("the components that work within one group are not asked")
                .contains("jmca: rank 0: MPI_COMM_WORLD split(0) intercomm(99): coll: coll/tuned: declined:"
                        + " intracommunicators only");
    }

    private static String tail(List<String> lines) {
        List<String> last = lines.stream().filter(l -> !l.contains(" coll:")).toList();
        return String.join("\n", last.subList(Math.max(0, last.size() - 40), last.size()));
    }
}
