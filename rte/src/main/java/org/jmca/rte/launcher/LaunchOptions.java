package org.jmca.rte.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jmca.config.McaOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What a job is to be: the ranks, the program, the parameters, where the ranks run and how the
 * launcher reports them. jmpirun's flags fill it (a picocli mixin, so each flag is defined here
 * once), and so does the launch API ({@code org.jmca.launch.MpiJob.Builder}) through the setters;
 * {@link Launcher} runs it.
 */
public final class LaunchOptions {
    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N",
            description = "Number of processes (default: -N times the hosts, else every slot of the hosts given).")
    Integer np;

    @Mixin
    McaOptions mcaOptions = new McaOptions();

    @Option(names = {"-H", "--host"}, paramLabel = "HOST[:SLOTS],...",
            description = "The hosts to run on, each with its slots (default 1): h1:2,h2:2.")
    String hostSpec;

    @Option(names = "--hostfile", paramLabel = "FILE", description = "The hosts to run on, one 'host slots=N' per line.")
    Path hostfile;

    @Option(names = "--map-by", paramLabel = "slot|node", defaultValue = "slot",
            description = "slot (default): fill each host's slots in turn; node: one rank per host in turn.")
    RankMap.MapBy mapBy = RankMap.MapBy.slot;

    @Option(names = "-N", paramLabel = "N", defaultValue = "0", description = "Ranks on each host.")
    int perHost;

    @Option(names = "--oversubscribe", description = "Run more ranks on a host than it has slots.")
    boolean oversubscribe;

    @Option(names = "-x", paramLabel = "NAME[=VALUE]",
            description = "Export an environment variable to every rank (its value here when none is given).")
    List<String> exports = new ArrayList<>();

    @Option(names = "--output-filename", paramLabel = "DIR",
            description = "Also write each rank's output to DIR/1/rank.N/stdout and stderr.")
    Path outputDirectory;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0",
            description = "Stop the job after this many seconds (status " + Launcher.TIMED_OUT + "; 0: never).")
    int timeout;

    @Option(names = "--report-bindings", description = "Print where each rank runs and, from MPI.Init, which of its"
            + " threads is bound to which CPU.")
    boolean reportBindings;

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH",
            description = "Class path of the program (default: $CLASSPATH, else the current directory;"
                    + " an empty one runs a class of JMCA's own jars).")
    String classPath;

    @Option(names = "-jar", paramLabel = "JAR", description = "Run the Main-Class of JAR.")
    Path jar;

    @Option(names = "--tag-output", description = "Prefix each line of output with [1,RANK]<stdout>: as Open MPI does.")
    boolean tagOutput;

    @Option(names = "--wireup-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long ranks may wait for each other in MPI.Init's exchange (default ${DEFAULT-VALUE}).")
    int wireupTimeout = 60;

    /** Where ranks may run. */
    enum Binding { none, core }

    @Option(names = "--bind-to", paramLabel = "none|core", defaultValue = "none",
            description = "core: each rank binds the thread that runs it (the one that calls MPI.Init) to one CPU of its"
                    + " host - its place among the host's ranks, modulo the CPUs the job may use - as Open MPI's --bind-to"
                    + " core places ranks; the JVM's JIT compiler and GC threads stay free. none (default): let the"
                    + " scheduler place ranks.")
    Binding bindTo = Binding.none;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "An option for every rank's JVM (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--no-aot-cache", description = "Start the ranks without the ahead-of-time cache that the build"
            + " trained (" + AotCache.RANK_CACHE + "); it is also left out when a --jvm-arg or JMCA_JAVA_OPTS"
            + " names an AOT or CDS option of its own.")
    boolean noAotCache;

    /** What a rank is. */
    enum RanksAs { processes, threads }

    @Option(names = "--ranks-as", paramLabel = "processes|threads", defaultValue = "processes",
            description = "processes (default): a JVM per rank; threads: every rank a thread of jmpirun's own JVM, in a"
                    + " class loader of its own (the mpi package's statics and the program's are the rank's), talking"
                    + " through btl/thread.")
    RanksAs ranksAs = RanksAs.processes;

    @Parameters(paramLabel = "CLASS [ARGS...]", arity = "0..*", description = "The main class and its arguments.")
    List<String> program = new ArrayList<>();

    // ---- what the launch API sets (org.jmca.launch.MpiJob.Builder); jmpirun's flags set the same fields

    public LaunchOptions ranks(int ranks) {
        this.np = ranks;
        return this;
    }

    public LaunchOptions mca(String name, String value) {
        mcaOptions.mca(name, value);
        return this;
    }

    public LaunchOptions tune(Path file) {
        mcaOptions.tune(file);
        return this;
    }

    public LaunchOptions hosts(String hostsAndSlots) {
        this.hostSpec = hostsAndSlots;
        return this;
    }

    public LaunchOptions mapByNode(boolean byNode) {
        this.mapBy = byNode ? RankMap.MapBy.node : RankMap.MapBy.slot;
        return this;
    }

    public LaunchOptions export(String nameAndValue) {
        exports.add(nameAndValue);
        return this;
    }

    public LaunchOptions timeout(int seconds) {
        this.timeout = seconds;
        return this;
    }

    public LaunchOptions classPath(String path) {
        this.classPath = path;
        return this;
    }

    public LaunchOptions bindToCore() {
        this.bindTo = Binding.core;
        return this;
    }

    public LaunchOptions jvmArg(String option) {
        jvmArgs.add(option);
        return this;
    }

    public LaunchOptions threads() {
        this.ranksAs = RanksAs.threads;
        return this;
    }

    public boolean threadRanks() {
        return ranksAs == RanksAs.threads;
    }

    /** The main class and its arguments. */
    public LaunchOptions program(String mainClass, List<String> args) {
        program.clear();
        program.add(mainClass);
        program.addAll(args);
        return this;
    }

    public boolean hasProgram() {
        return !program.isEmpty() || jar != null;
    }
}
