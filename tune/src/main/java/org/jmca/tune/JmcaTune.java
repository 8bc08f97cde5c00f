package org.jmca.tune;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.jmca.coll.tuned.rules.RulesFiles;
import org.jmca.coll.tuned.rules.RulesTable;
import org.jmca.coll.tuned.rules.RulesWriter;
import org.jmca.coll.tuned.rules.TunedCollective;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jmca-tune}: see the command's description, and README's "Tuning collectives for your machine". */
@Command(name = "jmca-tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Measures every coll/tuned algorithm of the chosen collectives on this machine (each point timed as OSU"
                    + " does, in interleaved rounds), writes the rules table that is fastest here in Open MPI's"
                    + " classic format (PREFIX.rules) and as HOCON with algorithm names (PREFIX.conf), draws a"
                    + " plot per collective (PREFIX-plots/), then verifies the table against the fixed rules.",
            "An algorithm wins a range of message sizes only where it beats the fixed rules' choice by more than"
                    + " the noise measured there; elsewhere the table leaves the call to the fixed rules.",
            "Use the table: jmpirun --mca coll_tuned_dynamic_rules_filename PREFIX.rules ...",
            "Exit status: 0, or 3 when the verification found the table slower somewhere beyond the noise."})
public final class JmcaTune implements Callable<Integer> {
    /** What TunePoints can run, in the order tables list them. */
    static final List<TunedCollective> MEASURABLE = List.of(TunedCollective.BCAST, TunedCollective.ALLREDUCE,
            TunedCollective.REDUCE, TunedCollective.ALLGATHER, TunedCollective.ALLTOALL, TunedCollective.GATHER,
            TunedCollective.SCATTER, TunedCollective.REDUCE_SCATTER_BLOCK, TunedCollective.BARRIER);

    @Option(names = "--component", paramLabel = "tuned|gm", defaultValue = "tuned",
            description = "What to tune: tuned, coll/tuned's rules table (default); gm, coll/gm's selection map"
                    + " (PREFIX.conf; run with --mca btl self,gm --mca btl_gm_device emulated).")
    String componentName;

    @Option(names = "--coll", split = ",", paramLabel = "NAME",
            description = "The collectives to tune (default: ${DEFAULT-VALUE}; also gather, scatter,"
                    + " reduce_scatter_block, barrier).", defaultValue = "bcast,allreduce,reduce,allgather,alltoall")
    List<String> collectives;

    @Option(names = "--np", split = ",", paramLabel = "N", defaultValue = "2,4",
            description = "Communicator sizes, one job each (default: ${DEFAULT-VALUE}).")
    List<Integer> ranks;

    @Option(names = "--sizes", paramLabel = "LOW:HIGH|S,S,...", defaultValue = "8:1m",
            description = "Message sizes in bytes per rank: powers of two from LOW to HIGH, or a list"
                    + " (default: ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "--segsizes", split = ",", paramLabel = "SIZE", defaultValue = "0,8k,64k",
            description = "Segment sizes tried for the segmented algorithms; 0 is none (default: ${DEFAULT-VALUE}).")
    List<String> segmentSizes;

    @Option(names = "--rounds", defaultValue = "3",
            description = "Rounds of every point, interleaved (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--iterations", split = ",", paramLabel = "N", defaultValue = "1000,200,100,10",
            description = "Timed and warm-up calls of a point up to 8 KiB, then above: OSU's defaults (${DEFAULT-VALUE}).")
    List<Integer> iterations;

    @Option(names = "--jit-warmup", defaultValue = "200", paramLabel = "N",
            description = "Untimed calls of every configuration at its smallest size (a tenth at its largest) before"
                    + " a job times any, so that none pays the JIT for the others (default: ${DEFAULT-VALUE}).")
    int jitWarmup;

    @Option(names = "--min-noise", defaultValue = "0.03", paramLabel = "FRACTION",
            description = "The least margin by which an algorithm must beat the fixed rules (default: ${DEFAULT-VALUE}).")
    double minNoise;

    @Option(names = "--mca", arity = "2", paramLabel = "NAME VALUE", hideParamSyntax = true,
            description = "A parameter for every job, as jmpirun takes it (--mca btl self,sm).")
    List<String> mca = new ArrayList<>();

    @Option(names = "--host", paramLabel = "HOSTS", description = "As jmpirun's --host.")
    String host;

    @Option(names = "--ranks-as", paramLabel = "processes|threads", description = "As jmpirun's --ranks-as.")
    String ranksAs;

    @Option(names = "--bind-to", paramLabel = "core|none", description = "As jmpirun's --bind-to.")
    String bindTo;

    @Option(names = "--out", paramLabel = "PREFIX", defaultValue = "jmca-tune",
            description = "Where results go: PREFIX.rules, PREFIX.conf, PREFIX.csv, PREFIX-verify.csv, PREFIX-plots/"
                    + " (default: ${DEFAULT-VALUE}).")
    String out;

    @Option(names = "--resume", description = "Continue an interrupted run from PREFIX.csv: measure only what it lacks.")
    boolean resume;

    @Option(names = "--verify", paramLabel = "FILE",
            description = "Only verify FILE (a rules table) against the fixed rules, in --rounds interleaved rounds.")
    Path verifyOnly;

    @Option(names = "--verify-repeats", defaultValue = "3", paramLabel = "N",
            description = "In a verification of a coll/tuned table, how often each round times each point with and"
                    + " without it, alternating which goes first (default: ${DEFAULT-VALUE}).")
    int verifyRepeats;

    @Option(names = "--stall", defaultValue = "120", paramLabel = "SECONDS",
            description = "A point that gives no result in this long is stopped and recorded as failed"
                    + " (default: ${DEFAULT-VALUE}).")
    long stallSeconds;

    private final PrintStream err = System.err;
    private Component component;

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new JmcaTune());
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("jmca-tune: " + e.getMessage());
            return 2;
        });
        System.exit(line.execute(args));
    }

    @Override
    public Integer call() throws IOException {
        component = Component.of(componentName);
        Settings settings = settings();
        TuneJobs jobs = new TuneJobs(new TuneJobs.Launch(jmpirun(), component, jobFlags(), iterationCounts(),
                stallSeconds));
        if (verifyOnly != null) {
            if (!Files.isReadable(verifyOnly)) {
                throw new IllegalArgumentException("--verify " + verifyOnly + ": no such file");
            }
            if (component == Component.TUNED) {
                RulesFiles.read(verifyOnly); // a table that does not read is an error before any job
            }
            return verify(jobs, settings, verifyOnly.toAbsolutePath());
        }
        Path csv = Path.of(out + ".csv");
        MeasurementFile file = resume ? MeasurementFile.resume(csv, settings.describe())
                : MeasurementFile.create(csv, settings.describe());
        measure(jobs, settings, file);

        List<Measurement> measurements = file.read();
        Map<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> decisions = new LinkedHashMap<>();
        for (TunedCollective collective : settings.collectives()) {
            decisions.put(collective, Decisions.decide(measurements, collective, minNoise));
        }
        Path rules = Path.of(out + ".rules");
        Path conf = Path.of(out + ".conf");
        List<String> header = header(settings);
        err.println();
        printDecisions(decisions);
        List<Path> plots = TunePlots.draw(Path.of(out + "-plots"), component, measurements, decisions);
        if (component == Component.GM) {
            Files.writeString(conf, GmMapWriter.write(decisions, header));
            err.println("jmca-tune: wrote " + conf + " (coll/gm's selection map), " + plots.size() + " plots in " + out
                    + "-plots/");
            return verify(jobs, settings, conf.toAbsolutePath());
        }
        RulesTable table = Decisions.table(decisions, rules);
        Files.writeString(rules, RulesWriter.classic(table, header));
        Files.writeString(conf, RulesWriter.hocon(table, header));
        err.println("jmca-tune: wrote " + rules + " (Open MPI's classic format), " + conf + " (HOCON), "
                + plots.size() + " plots in " + out + "-plots/");
        return verify(jobs, settings, rules.toAbsolutePath());
    }

    // ---- settings ---------------------------------------------------------------------------

    /** What shapes the measurements: a resumed run must have the same. */
    record Settings(Component component, List<TunedCollective> collectives, List<Integer> ranks, List<Long> sizes,
                    List<Long> segmentSizes, int rounds, List<String> flags, int[] counts) {
        String describe() {
            return "--component " + component.id + " --coll "
                    + String.join(",", collectives.stream().map(TunedCollective::configName).toList())
                    + " --np " + join(ranks) + " --sizes " + join(sizes) + " --segsizes " + join(segmentSizes)
                    + " --rounds " + rounds + " --iterations "
                    + join(java.util.Arrays.stream(counts).limit(4).boxed().toList()) + " --jit-warmup " + counts[4]
                    + (flags.isEmpty() ? "" : " " + String.join(" ", flags));
        }

        private static String join(List<?> values) {
            return String.join(",", values.stream().map(String::valueOf).toList());
        }
    }

    private Settings settings() {
        List<TunedCollective> chosen = new ArrayList<>();
        for (String name : collectives) {
            TunedCollective collective = TunedCollective.byName(name).filter(MEASURABLE::contains)
                    .orElseThrow(() -> new IllegalArgumentException("--coll " + name + ": jmca-tune measures "
                            + String.join(", ", MEASURABLE.stream().map(TunedCollective::configName).toList())));
            if (!chosen.contains(collective)) {
                chosen.add(collective);
            }
        }
        for (int n : ranks) {
            if (n < 2) {
                throw new IllegalArgumentException("--np " + n + ": coll/tuned serves communicators of 2 ranks or more");
            }
        }
        if (!ranks.equals(ranks.stream().sorted().distinct().toList())) {
            throw new IllegalArgumentException("--np " + ranks + ": sizes must be ascending, each once");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds " + rounds + ": at least 1");
        }
        if (minNoise < 0 || minNoise >= 1) {
            throw new IllegalArgumentException("--min-noise " + minNoise + ": a fraction from 0 to below 1");
        }
        iterationCounts();
        List<Long> segments = segmentSizes.stream().map(text -> parseSize("--segsizes", text)).distinct().toList();
        List<Long> messageSizes;
        try {
            messageSizes = Sizes.parse(sizes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--sizes " + sizes + ": " + e.getMessage());
        }
        return new Settings(component, List.copyOf(chosen), List.copyOf(ranks), messageSizes, segments, rounds, jobFlags(),
                iterationCounts());
    }

    private static long parseSize(String option, String text) {
        try {
            return org.jmca.mca.param.ParamType.SIZE.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + text + ": " + e.getMessage());
        }
    }

    private int[] iterationCounts() {
        if (iterations == null || iterations.size() != 4 || iterations.stream().anyMatch(n -> n < 0) || iterations.get(0) < 1
                || iterations.get(2) < 1) {
            throw new IllegalArgumentException("--iterations " + iterations + ": four counts, timed and warm-up up"
                    + " to 8 KiB, then above (timed at least 1)");
        }
        if (jitWarmup < 0) {
            throw new IllegalArgumentException("--jit-warmup " + jitWarmup + ": 0 or more");
        }
        return java.util.stream.IntStream.concat(iterations.stream().mapToInt(Integer::intValue),
                java.util.stream.IntStream.of(jitWarmup)).toArray();
    }

    /** The flags every job gets: placement and transports as given, and coll/tuned first for every collective. */
    private List<String> jobFlags() {
        List<String> flags = new ArrayList<>();
        if (host != null) {
            flags.addAll(List.of("--host", host));
        }
        if (ranksAs != null) {
            flags.addAll(List.of("--ranks-as", ranksAs));
        }
        if (bindTo != null) {
            flags.addAll(List.of("--bind-to", bindTo));
        }
        boolean priority = false;
        for (int i = 0; i + 1 < mca.size(); i += 2) {
            flags.addAll(List.of("--mca", mca.get(i), mca.get(i + 1)));
            priority |= mca.get(i).equals(component.priorityParameter());
        }
        if (!priority) {
            flags.addAll(List.of("--mca", component.priorityParameter(), "100"));
        }
        return flags;
    }

    /** bin/jmpirun beside the bin/jmca-tune that started this JVM. */
    private static Path jmpirun() {
        String bin = System.getProperty("jmca.bin");
        if (bin == null || bin.isBlank()) {
            throw new IllegalStateException("jmca.bin is not set: run jmca-tune through bin/jmca-tune");
        }
        return Path.of(bin, "jmpirun");
    }

    // ---- measuring ----------------------------------------------------------------------------

    /** The configurations of a collective: the component's own choice, then each algorithm. */
    private List<Config> configs(TunedCollective collective, List<Long> segmentSizes) {
        List<Config> configs = new ArrayList<>();
        configs.add(Config.FIXED);
        List<String> algorithms = component.algorithms(collective);
        for (int n = 1; n <= algorithms.size(); n++) {
            if (component.segmented(collective, algorithms.get(n - 1))) {
                for (long segment : segmentSizes) {
                    configs.add(new Config(n, segment));
                }
            } else {
                configs.add(new Config(n, 0));
            }
        }
        return configs;
    }

    private static List<Long> sizesOf(TunedCollective collective, List<Long> sizes) {
        return switch (collective) {
            case BARRIER -> List.of(0L);
            case ALLREDUCE, REDUCE, REDUCE_SCATTER_BLOCK -> sizes.stream().filter(s -> s >= Float.BYTES).toList();
            default -> sizes;
        };
    }

    private void measure(TuneJobs jobs, Settings settings, MeasurementFile file) {
        Set<String> done = new HashSet<>();
        file.read().forEach(m -> done.add(m.round() + " " + m.point()));
        int total = 0;
        Map<Integer, Map<Integer, List<TunePoints.Planned>>> plans = new LinkedHashMap<>();
        for (int round = 1; round <= settings.rounds(); round++) {
            for (int ranks : settings.ranks()) {
                List<TunePoints.Planned> plan = new ArrayList<>();
                for (TunedCollective collective : settings.collectives()) {
                    List<Config> configs = configs(collective, settings.segmentSizes());
                    for (long size : sizesOf(collective, settings.sizes())) {
                        for (int i = 0; i < configs.size(); i++) {
                            // each round starts the size's configurations at another one
                            Config config = configs.get((i + round - 1) % configs.size());
                            Measurement.Point point = new Measurement.Point(collective, ranks, config, size);
                            if (done.contains(round + " " + point)) {
                                continue;
                            }
                            String why = component.unsuitable(collective, config, ranks);
                            if (why != null) {
                                file.append(new Measurement(round, collective, ranks, config, size, Double.NaN, why));
                                continue;
                            }
                            plan.add(new TunePoints.Planned(plan.size(), collective, config, size));
                        }
                    }
                }
                total += plan.size();
                plans.computeIfAbsent(round, r -> new LinkedHashMap<>()).put(ranks, plan);
            }
        }
        Progress progress = new Progress(err, total, done.isEmpty() ? "" : " (resumed)");
        plans.forEach((round, byRanks) -> byRanks.forEach((ranks, plan) -> jobs.run(ranks, plan, List.of(),
                recorder(file, round, ranks, progress))));
        progress.finish();
    }

    // ---- the table ------------------------------------------------------------------------------

    private List<String> header(Settings settings) {
        String machine;
        try {
            machine = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            machine = "this machine";
        }
        String version = JmcaTune.class.getPackage().getImplementationVersion();
        return List.of("A " + (component == Component.TUNED ? "rules table for coll/tuned" : "selection map for coll/gm")
                        + ", made by jmca-tune (JMCA " + (version == null ? "development build"
                        : version) + ") on " + machine + " (" + Runtime.getRuntime().availableProcessors() + " cores), "
                        + Instant.now().truncatedTo(ChronoUnit.SECONDS),
                "jmca-tune " + settings.describe(),
                "Use it: jmpirun --mca " + component.tableParameter + " THIS_FILE ...",
                component == Component.TUNED ? "Algorithm 0 leaves the call to the fixed rules: no algorithm beat them"
                        + " there beyond the noise (at least " + minNoise + ")."
                        : "Where no algorithm beat the shipped map beyond the noise (at least " + minNoise + "), its"
                        + " own choice is written.");
    }

    private void printDecisions(Map<TunedCollective, SortedMap<Integer, List<Decisions.Point>>> decisions) {
        decisions.forEach((collective, byRanks) -> byRanks.forEach((ranks, points) -> {
            err.println(collective.configName() + " on " + ranks + " ranks:");
            for (Decisions.Point p : points) {
                err.printf("  %8s  %-36s %10.2f us  (" + component.ownChoice + " %.2f us, noise %.0f%%)%n",
                        Sizes.format(p.size()),
                        component.label(collective, p.choice()), p.chosenMicros(), p.fixedMicros(), 100 * p.noise());
            }
        }));
    }

    // ---- verification ---------------------------------------------------------------------------

    /**
     * The table against the component's own choice, {@code --rounds} times, each point with the
     * speedup and a verdict; 3 if the table loses anywhere beyond the noise. coll/tuned's check
     * runs in one job per round and communicator size, given the table as a user gives it: each
     * point is timed on two communicators one after the other (one told to keep to the fixed
     * rules), {@code --verify-repeats} times, which goes first alternating. The job's own state,
     * which on 2 cores varies several times over from job to job, then falls on both alike.
     * coll/gm's map cannot be left aside by one communicator, so its check pairs a job with the map
     * and one without, A B then B A.
     */
    private int verify(TuneJobs jobs, Settings settings, Path table) {
        Path csv = Path.of(out + "-verify.csv");
        MeasurementFile file = MeasurementFile.create(csv, "verify " + table + " " + settings.describe());
        List<String> withTable = List.of("--mca", component.tableParameter, table.toString());
        boolean sideBySide = component == Component.TUNED;
        if (verifyRepeats < 1) {
            throw new IllegalArgumentException("--verify-repeats " + verifyRepeats + ": at least 1");
        }
        int repeats = sideBySide ? verifyRepeats : 1;
        int total = 2 * repeats * plan(settings, List.of(Config.FIXED)).size() * settings.ranks().size()
                * settings.rounds();
        err.println("jmca-tune: verifying " + table + " against the " + component.ownChoice + ", " + settings.rounds()
                + " interleaved rounds");
        Progress progress = new Progress(err, total, "");
        for (int round = 1; round <= settings.rounds(); round++) {
            int r = round;
            List<Config> order = round % 2 == 1 ? List.of(Config.TABLE, Config.FIXED) : List.of(Config.FIXED, Config.TABLE);
            for (int ranks : settings.ranks()) {
                if (sideBySide) {
                    List<Config> pairs = new ArrayList<>();
                    for (int i = 0; i < repeats; i++) { // A B, B A, A B ...
                        pairs.addAll(i % 2 == 0 ? order : order.reversed());
                    }
                    jobs.run(ranks, plan(settings, pairs), withTable, recorder(file, r, ranks, progress));
                    continue;
                }
                for (Config config : order) {
                    jobs.run(ranks, plan(settings, List.of(config)), config.equals(Config.TABLE) ? withTable : List.of(),
                            recorder(file, r, ranks, progress));
                }
            }
        }
        progress.finish();
        Verification verification = Verification.of(file.read(), minNoise);
        verification.print(err, component.ownChoice);
        return verification.losses().isEmpty() ? 0 : 3;
    }

    /** Appends each outcome of a job on {@code ranks} ranks in {@code round} to {@code file}, and counts it. */
    private static Consumer<TuneJobs.Outcome> recorder(MeasurementFile file, int round, int ranks, Progress progress) {
        return outcome -> {
            file.append(new Measurement(round, outcome.point().collective(), ranks, outcome.point().config(),
                    outcome.point().size(), outcome.micros(), outcome.error()));
            progress.step();
        };
    }

    /** Every collective and size of the run, each with {@code configs} one after the other. */
    private static List<TunePoints.Planned> plan(Settings settings, List<Config> configs) {
        List<TunePoints.Planned> plan = new ArrayList<>();
        for (TunedCollective collective : settings.collectives()) {
            for (long size : sizesOf(collective, settings.sizes())) {
                for (Config config : configs) {
                    plan.add(new TunePoints.Planned(plan.size(), collective, config, size));
                }
            }
        }
        return plan;
    }
}
