package bench.compare;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench/compare}: runs OSU-style benchmarks on JMCA and, where Open MPI is installed, their
 * C counterparts (compiled here with mpicc) under Open MPI's mpirun, interleaved round after
 * round; prints the medians and the JMCA/Open MPI ratio per size, and writes CSV files, PNG plots
 * and a Markdown summary (which {@code --update} puts into BENCHMARKS.md).
 */
@Command(name = "bench/compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs benchmarks on JMCA and Open MPI side by side and compares the medians.",
                "Needs a built tree (./mvnw -q install -DskipTests); Open MPI from openmpi-bin and libopenmpi-dev."})
public final class Compare implements Callable<Integer> {

    @Option(names = "--quick", description = "latency, bw, bcast and allreduce on 2 ranks over sm and tcp,"
            + " 3 rounds, fewer iterations: under 10 minutes on 2 cores.")
    boolean quick;

    @Option(names = {"-b", "--benchmarks"}, split = ",", paramLabel = "NAME",
            description = "Benchmarks to run: ${COMPLETION-CANDIDATES} (default: all).")
    List<Benchmark> benchmarks;

    @Option(names = {"-t", "--transports"}, split = ",", paramLabel = "BTL", defaultValue = "sm,tcp",
            description = "Transports: sm, tcp, veth (tcp between two network namespaces as hosts, one rank"
                    + " each; needs root; bench/netns-hosts), thread (JMCA's ranks as threads of one JVM over"
                    + " btl/thread, against Open MPI's processes over vader) (default: ${DEFAULT-VALUE}).")
    List<String> transports;

    @Option(names = {"-n", "--np"}, defaultValue = "2", description = "Ranks of the collective benchmarks"
            + " (point-to-point ones always use 2; default ${DEFAULT-VALUE}).")
    int np;

    @Option(names = {"-r", "--rounds"}, description = "Interleaved rounds (default 5, 3 with --quick).")
    Integer rounds;

    @Option(names = {"-m", "--sizes"}, paramLabel = "MIN:MAX", defaultValue = "1:1048576",
            description = "Message sizes in bytes (default ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = {"-i", "--iterations"}, description = "Iterations per size (default 2000, 300 with --quick;"
            + " latency 20000, 10000 with --quick: a round trip is cheap, and a window of a few hundred"
            + " catches every preemption of the machine).")
    Integer iterations;

    @Option(names = {"-o", "--out"}, defaultValue = "bench/results", paramLabel = "DIR",
            description = "Where CSV files, plots and summary.md go (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--update", paramLabel = "FILE", description = "Also write the summary between the"
            + " '<!-- compare:begin -->' and '<!-- compare:end -->' lines of FILE (e.g. BENCHMARKS.md).")
    Path update;

    @Option(names = "--jmca-only", description = "Do not run Open MPI even if it is installed.")
    boolean jmcaOnly;

    @Option(names = "--osu-defaults", description = "Run each benchmark with OSU's own iteration and warm-up counts"
            + " (-m only), as a user first runs it; --iterations is then not allowed.")
    boolean osuDefaults;

    @Option(names = "--jit-warmup", description = "Give the Java benchmarks their extended JIT warm-up (-J):"
            + " steady-state figures, not those an application meets.")
    boolean jitWarmup;

    private final Path root;
    private final String commandLine;

    Compare(Path root, String commandLine) {
        this.root = root;
        this.commandLine = commandLine;
    }

    public static void main(String[] args) {
        Path root = Path.of(System.getProperty("jmca.root", ".")).toAbsolutePath().normalize();
        Compare compare = new Compare(root, ("bench/compare " + String.join(" ", args)).strip());
        System.exit(new CommandLine(compare).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    /** One measured run's key. */
    record Series(Benchmark benchmark, String transport, String implementation) {
    }

    /** The implementations a comparison runs. */
    static final String JMCA = "JMCA";
    static final String OPEN_MPI = "Open MPI";
    static final String OPEN_MPI_JAVA = "Open MPI Java";

    @Override
    public Integer call() throws Exception {
        List<Benchmark> chosen = benchmarks != null ? benchmarks
                : quick ? List.of(Benchmark.LATENCY, Benchmark.BW, Benchmark.BCAST, Benchmark.ALLREDUCE)
                : List.of(Benchmark.values());
        int roundCount = rounds != null ? rounds : quick ? 3 : 5;
        Benchmark.Sizes range = parseSizes(sizes);
        for (String transport : transports) {
            if (!List.of("sm", "tcp", Launchers.VETH, Launchers.THREAD).contains(transport)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--transports " + transport
                        + ": the transports are sm, tcp, veth and thread");
            }
        }
        if (osuDefaults && iterations != null) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--osu-defaults runs OSU's own iteration counts: leave out --iterations");
        }
        Launchers launchers = new Launchers(root, np);
        if (transports.contains(Launchers.VETH)) {
            launchers.makeVethHosts();
        }
        try {
            return measure(launchers, chosen, roundCount, range);
        } finally {
            launchers.removeVethHosts();
        }
    }

    private int measure(Launchers launchers, List<Benchmark> chosen, int roundCount, Benchmark.Sizes range)
            throws Exception {
        boolean withOpenMpi = !jmcaOnly && launchers.openMpiInstalled();
        if (!withOpenMpi) {
            System.err.println("compare: " + (jmcaOnly ? "--jmca-only" : "Open MPI is not installed (apt-get install"
                    + " openmpi-bin libopenmpi-dev)") + ": measuring JMCA alone");
        } else {
            launchers.compile(chosen);
        }
        Launchers.JavaBindings javaBindings = withOpenMpi ? launchers.openMpiJava() : null;
        if (javaBindings != null && javaBindings.whyNot() != null) {
            System.err.println("compare: Open MPI's Java bindings are not measured: " + javaBindings.whyNot());
        }
        List<String> implementations = !withOpenMpi ? List.of(JMCA)
                : javaBindings.whyNot() == null ? List.of(JMCA, OPEN_MPI, OPEN_MPI_JAVA) : List.of(JMCA, OPEN_MPI);
        Map<Series, SortedMap<Long, List<Double>>> results = new LinkedHashMap<>();
        List<String> csv = new ArrayList<>(List.of("benchmark,transport,implementation,round,size,value"));
        int total = roundCount * chosen.size() * transports.size() * implementations.size();
        int done = 0;
        long started = System.nanoTime();
        for (int round = 1; round <= roundCount; round++) {
            for (Benchmark benchmark : chosen) {
                for (String transport : transports) {
                    List<String> order = new ArrayList<>(implementations);
                    if (round % 2 == 0) {
                        order = order.reversed();
                    }
                    Integer iters = osuDefaults ? null : iterations != null ? iterations
                            : benchmark == Benchmark.LATENCY ? (quick ? 10_000 : 20_000) : quick ? 300 : 2000;
                    Integer warm = iters == null ? null : iters / 10;
                    for (String implementation : order) {
                        progress(done, total, started, round, roundCount, benchmark, transport, implementation);
                        String output = switch (implementation) {
                            case JMCA -> launchers.jmca(benchmark, transport,
                                    benchmark.javaArgs(range, iters, warm, jitWarmup));
                            case OPEN_MPI_JAVA -> launchers.openMpiJava(javaBindings, benchmark, transport,
                                    benchmark.javaArgs(range, iters, warm, jitWarmup));
                            default -> launchers.openMpi(benchmark, transport, benchmark.cArgs(range, iters, warm));
                        };
                        SortedMap<Long, Double> table = OsuTable.parse(output, implementation + " " + benchmark.id());
                        Series series = new Series(benchmark, transport, implementation);
                        for (var row : table.entrySet()) {
                            if (range.covers(row.getKey()) || benchmark == Benchmark.BARRIER || benchmark.isAppLoop()) {
                                results.computeIfAbsent(series, s -> new TreeMap<>())
                                        .computeIfAbsent(row.getKey(), s -> new ArrayList<>()).add(row.getValue());
                                csv.add(benchmark.id() + "," + transport + "," + implementation + "," + round + ","
                                        + row.getKey() + "," + row.getValue());
                            }
                        }
                        done++;
                    }
                }
            }
        }
        Files.createDirectories(out);
        Files.write(out.resolve("results.csv"), csv);
        Report report = new Report(results, chosen, transports, withOpenMpi,
                javaBindings == null ? null : javaBindings.whyNot(), roundCount, np);
        Files.write(out.resolve("medians.csv"), report.mediansCsv());
        List<Path> plots = new Plots(out).draw(report);
        String summary = report.markdown(commandLine, Machine.describe(launchers), plots, out);
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println(summary);
        if (update != null) {
            Report.replaceBetweenMarkers(update, summary);
            System.err.println("compare: updated " + update);
        }
        System.err.printf("compare: %d runs in %s; CSV, plots and summary.md in %s%n", total,
                format(Duration.ofNanos(System.nanoTime() - started)), out);
        return 0;
    }

    static Benchmark.Sizes parseSizes(String text) {
        String[] parts = text.split(":");
        try {
            long min = parts.length == 2 ? Long.parseLong(parts[0]) : 1;
            long max = Long.parseLong(parts[parts.length - 1]);
            if (parts.length > 2 || min < 0 || max < min) {
                throw new NumberFormatException();
            }
            return new Benchmark.Sizes(min, max);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--sizes " + text + ": expected MIN:MAX or MAX in bytes, MIN <= MAX");
        }
    }

    private static void progress(int done, int total, long started, int round, int rounds, Benchmark benchmark,
                                 String transport, String implementation) {
        long elapsed = System.nanoTime() - started;
        String left = done == 0 ? "" : ", about " + format(Duration.ofNanos(elapsed / done * (total - done))) + " left";
        System.err.printf("compare: [%d/%d] round %d/%d: %s over %s on %s (elapsed %s%s)%n", done + 1, total, round,
                rounds, benchmark.id(), transport, implementation, format(Duration.ofNanos(elapsed)), left);
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }
}
