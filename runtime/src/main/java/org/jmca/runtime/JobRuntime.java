package org.jmca.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.config.McaSources;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.ComponentStatus;
import org.jmca.mca.Framework;
import org.jmca.mca.McaException;
import org.jmca.mca.McaFrameworks;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlDoorbell;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollSelection;
import org.jmca.mca.pml.PmlComponent;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.os.ThreadPlacement;
import org.jmca.mca.progress.ProgressEnvironment;
import org.jmca.rte.AotCacheUse;
import org.jmca.rte.JobInfo;
import org.jmca.rte.PeerRecord;
import org.jmca.rte.RankBinding;
import org.jmca.rte.WireUp;

/**
 * The MPI state of this process between Init and Finalize: the wire-up, the opened frameworks
 * and the modules the selected components made. Init and Finalize wire them in this order:
 * parameters → frameworks (selection) → progress engine → BTL modules → address exchange → PML →
 * asynchronous progress.
 *
 * <p>Under asynchronous progress and under THREAD_MULTIPLE, {@link #pml} and {@link #progress}
 * are views that enter the library around each call; MPI calls that make several of them bracket themselves with
 * {@link #enter()} and {@link #exit()} as well, so the application counts as inside the library
 * for the whole call.
 */
public final class JobRuntime {
    private static final String PML_KEY = "pml.component";

    public final WireUp wireUp;
    public final JobInfo job;
    public final McaFrameworks frameworks;
    /** The progress engine as MPI calls use it: locked under THREAD_MULTIPLE, owned under asynchronous progress. */
    public final ProgressEngine progress;
    public final List<BtlModule> btls;
    /** The host of each job rank. */
    public final String[] hosts;
    /** The job's processes as the wire-up described them (what their BTLs published), by rank. */
    public final List<Peer> peers;
    private final Map<Integer, String> bridgedHosts = new HashMap<>();
    /** What this process's BTLs published. */
    public final Map<String, String> published;
    /** The PML as MPI calls use it: each call inside the library under THREAD_MULTIPLE or asynchronous progress. */
    public final PmlModule pml;
    /** The selected coll components, asked for every new communicator. */
    public final List<CollSelection.Candidate> collCandidates;
    /** coll_base_verbose: 1 reports each communicator's table, 2 each call's algorithm. */
    public final int collVerbosity;
    /** mpi_warmup_ms: how long MPI.Init may warm the hot paths up (InitWarmup). */
    public final int warmupMillis;
    /** mpi_warmup_verbose: whether MPI.Init says what its warm-up did. */
    public final boolean warmupVerbose;
    public final long startNanos = System.nanoTime();
    /** What the process's windows did. */
    public final org.jmca.osc.OscCounters oscCounters = new org.jmca.osc.OscCounters();
    /** The next free communicator context; every rank of a communicator agrees on it when one is made. */
    public int nextContext = 4;
    /**
     * The collective MPI-IO calls' direct buffers ({@link TwoPhaseIo}), this process's own: a call
     * takes them and gives them back. Thread ranks share the runtime's classes, so no static field.
     */
    final java.util.concurrent.atomic.AtomicReference<TwoPhaseIo.Buffers> ioBuffers =
            new java.util.concurrent.atomic.AtomicReference<>();

    private JobRuntime(WireUp wireUp, McaFrameworks frameworks, ProgressEngine progress, List<BtlModule> btls,
                       List<Peer> peers, Map<String, String> published, PmlModule pml, boolean multiple) {
        this.wireUp = wireUp;
        this.job = wireUp.job();
        this.frameworks = frameworks;
        this.btls = btls;
        this.peers = List.copyOf(peers);
        this.published = Map.copyOf(published);
        this.hosts = peers.stream().map(Peer::hostname).toArray(String[]::new);
        // THREAD_MULTIPLE: one lock, taken on entering the library (LockedProgress). The build's AOT
        // training does not run this path: with it in the cache, the single-threaded ping-pong's
        // first calls were 3x slower at one message size (see BENCHMARKS.md).
        ProgressEngine entered = multiple ? new LockedProgress(progress) : progress;
        this.progress = multiple ? entered : progress.isAsynchronous() ? new OwnedProgress(progress) : progress;
        this.pml = multiple || progress.isAsynchronous() ? new OwnedPml(pml, entered) : pml;
        this.collCandidates = frameworks.selection(Framework.COLL).statuses().stream()
                .filter(s -> s.state() == ComponentStatus.State.SELECTED)
                .map(s -> new CollSelection.Candidate((CollComponent) s.component(), s.priority()))
                .toList();
        this.collVerbosity = frameworks.parameters().find("coll_base_verbose")
                .map(p -> (Integer) p.get()).orElse(0);
        this.warmupMillis = frameworks.parameters().find(McaFrameworks.WARMUP_MS_NAME)
                .map(p -> (Integer) p.get()).orElse(0);
        this.warmupVerbose = frameworks.parameters().find(McaFrameworks.WARMUP_VERBOSE_NAME)
                .map(p -> (Boolean) p.get()).orElse(false);
    }

    /**
     * @param env      the process's environment - a thread rank's own, which only the mpi package's
     *                 classes see (its class loader redirects their System.getenv), so the caller gives it
     * @param multiple the application asked for MPI_THREAD_MULTIPLE
     */
    public static JobRuntime start(Map<String, String> env, boolean multiple) {
        WireUp wireUp = WireUp.detect(env);
        JobInfo job = wireUp.job();
        int[] cpus = ThreadPlacement.allowedCpus(); // read before the rank binds this thread to one of them
        // first: what follows runs on the rank's CPU
        String binding = RankBinding.apply(env, job);
        if (binding != null) {
            System.err.println(binding);
        }
        String aot = AotCacheUse.warning(env, job);
        if (aot != null) {
            System.err.println(aot);
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        McaFrameworks frameworks = McaFrameworks.open(ComponentRepository.discover(loader),
                McaSources.ofEnvironment(env).classLoader(loader).registry(),
                line -> System.err.println("jmca: rank " + job.rank() + ": " + line));
        if (job.rank() == 0) {
            frameworks.warnings().forEach(w -> System.err.println("jmca: warning: " + w));
        }
        ProgressEngine progress = ((ProgressComponent) frameworks.selection(Framework.PROGRESS).requireSingle())
                .createEngine(new ProgressEnvironment(job.localSize(), hostCpus(), job.localRank(), cpus));
        List<BtlModule> btls = new ArrayList<>();
        BtlEnvironment btlEnvironment = new BtlEnvironment(job.rank(), job.size(), job.hostname(), job.jobId(),
                job.jobKey(), progress, job.sessionDirectory(), wireUp.threadJob());
        for (var component : frameworks.selection(Framework.BTL).selected()) {
            btls.addAll(((BtlComponent) component).createModules(btlEnvironment));
        }
        PmlComponent pmlComponent = (PmlComponent) frameworks.selection(Framework.PML).requireSingle();

        Map<String, String> published = new HashMap<>();
        btls.forEach(btl -> published.putAll(btl.localAddress()));
        published.put(PML_KEY, pmlComponent.name());
        List<PeerRecord> records = wireUp.exchange(published);
        List<Peer> peers = new ArrayList<>();
        for (PeerRecord record : records) {
            String theirPml = record.values().get(PML_KEY);
            if (!pmlComponent.name().equals(theirPml)) {
                throw new McaException("rank " + job.rank() + " selected pml/" + pmlComponent.name() + " but rank "
                        + record.rank() + " selected pml/" + theirPml + "; every rank must use the same pml");
            }
            peers.add(new Peer(record.rank(), record.hostname(), record.values()));
        }
        PmlModule pml;
        try {
            pml = pmlComponent.createModule(new PmlEnvironment(job.rank(), peers, btls, progress));
        } catch (McaException e) {
            // the BTLs the user asked for that declined are the likely cause: name them and why
            List<String> declined = frameworks.selection(Framework.BTL).declinedRequests();
            throw declined.isEmpty() ? e : new McaException(e.getMessage() + "; " + String.join("; ", declined), e);
        }
        if (wireUp.threadJob() != null) {
            // Nobody can kill a thread rank: it learns that its job is ending as it waits.
            progress.register(() -> {
                wireUp.checkJob();
                return 0;
            }, ProgressEngine.Priority.LOW);
        }
        if (progress.isAsynchronous()) {
            // asked for only here: a BTL may make its doorbell (futexes) when first asked
            BtlDoorbell doorbell = btls.stream().map(BtlModule::doorbell).filter(d -> d != null).findFirst().orElse(null);
            progress.startAsync(new AsyncSources(doorbell, pml::hasPendingReceives));
        }
        return new JobRuntime(wireUp, frameworks, progress, btls, peers, published, pml, multiple);
    }

    /**
     * The CPUs of this host: a process pinned to one CPU (jmpirun --bind-to core) still shares the
     * host with its peers, so oversubscription is judged against the host, not the affinity mask.
     */
    public static int hostCpus() {
        try {
            int cpus = 0;
            for (String range : Files.readString(Path.of("/sys/devices/system/cpu/online")).strip().split(",")) {
                String[] bounds = range.split("-");
                cpus += bounds.length == 1 ? 1 : Integer.parseInt(bounds[1]) - Integer.parseInt(bounds[0]) + 1;
            }
            return Math.max(cpus, Runtime.getRuntime().availableProcessors());
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** The application thread enters an MPI call (see the class comment). */
    public void enter() {
        progress.enter();
    }

    public void exit() {
        progress.exit();
    }

    /** The counters of the progress engine, the PML, the BTL modules and the coll components. */
    public List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> all = new ArrayList<>(progress.performanceVariables());
        all.addAll(pml.performanceVariables());
        btls.forEach(btl -> all.addAll(btl.performanceVariables()));
        collCandidates.forEach(c -> all.addAll(c.component().performanceVariables()));
        all.addAll(oscCounters.read());
        return all;
    }

    /** Waits until every fragment accepted for sending has left this process. */
    public void flush() {
        progress.waitUntil(() -> !pml.hasPendingSends());
    }

    /** Releases everything in the reverse order of {@link #start()}, then tells the launcher. */
    public void finish() {
        progress.close(); // first: it stops the helper thread of asynchronous progress
        pml.finalizeModule();
        btls.forEach(BtlModule::finalizeModule);
        frameworks.close();
        wireUp.finalized();
        wireUp.close();
    }

    /** The host of a peer: a rank of this job, or a process of a job it connected to. */
    public String hostOf(int peer) {
        return peer < hosts.length ? hosts[peer] : bridgedHosts.get(peer);
    }

    /** Remembers where a process of another job runs (accept, connect, spawn). */
    public void bridged(int peer, String host) {
        bridgedHosts.put(peer, host);
    }

    /** {@code context} and the one after it (its collectives') belong to a new communicator. */
    public void contextTaken(int context) {
        nextContext = Math.max(nextContext, context + 2);
    }

    /** The largest of the values every process of a group gives (a blocking collective). */
    public interface LargestOverAll<E extends Exception> {
        int of(int value) throws E;
    }

    /**
     * A new context agreed by every process of a group, in rounds: the largest of their next free
     * contexts is proposed, then each says whether it is still free here and, if so, takes it
     * that moment; the round repeats until all took it. A process thus never answers "free" for
     * one context in two agreements, blocking ones and iDup's ({@link ContextAgreement}) alike,
     * however they interleave. Collective.
     */
    public <E extends Exception> int agree(LargestOverAll<E> overAll) throws E {
        while (true) {
            int candidate = overAll.of(nextContext);
            boolean free = candidate >= nextContext;
            if (free) {
                contextTaken(candidate);
            }
            if (overAll.of(free ? 0 : 1) == 0) {
                return candidate;
            }
        }
    }
}
