package org.jmca.config.info;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import org.jmca.config.McaOptions;
import org.jmca.mca.Component;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.ComponentStatus;
import org.jmca.mca.Framework;
import org.jmca.mca.FrameworkSelection;
import org.jmca.mca.McaException;
import org.jmca.mca.McaFrameworks;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollSelection;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.pml.PmlRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code jmca-info}: what JMCA finds in this process — frameworks, components with their status
 * (selected, or why not), and parameters with value, source, level, type and help. The
 * counterpart of {@code ompi_info}, including its {@code --parsable} line format.
 */
@Command(name = "jmca-info", mixinStandardHelpOptions = true, versionProvider = JmcaInfo.Version.class,
        sortOptions = false,
        description = {"Shows JMCA's frameworks, components (selected, or why not) and parameters.",
                "Runs the same selection a job would, with the same parameter sources."})
public final class JmcaInfo implements Callable<Integer> {

    /** The component name under which a framework's own parameters are listed. */
    static final String BASE = "base";

    @Mixin
    private McaOptions mcaOptions = new McaOptions();

    @Option(names = "--param", arity = "2", paramLabel = "FRAMEWORK COMPONENT",
            description = "Show the parameters of a framework and component; 'all' matches every one,"
                    + " 'base' a framework's own parameters.")
    private List<String> param;

    @Option(names = "--level", paramLabel = "N",
            description = "Show parameters of level 1..N (1-3 user, 4-6 tuner, 7-9 developer);"
                    + " default 1, or 9 with --all.")
    private Integer level;

    @Option(names = "--all", description = "Show every parameter of every component (same as --param all all).")
    private boolean all;

    @Option(names = "--pvars", description = "List the performance variables (counters) each component keeps while a"
            + " job runs; a program reads them with MPI.performanceVariables().")
    private boolean pvars;

    @Option(names = "--coll-comm-size", paramLabel = "N",
            description = "Show which coll component (and how it chooses its algorithm) serves each collective"
                    + " on a communicator of N ranks, as coll_base_verbose=1 reports it in a job.")
    private Integer collCommSize;

    @Option(names = "--tables", description = "Print the tables components decide by, as the parameters given"
            + " make them (coll/gm's selection map with coll_gm_selection_map); an error in one is reported.")
    private boolean tables;

    @Option(names = "--parsable", description = "One 'mca:FW:COMP:...:VALUE' line per field, for scripts.")
    private boolean parsable;

    private final PrintStream out;
    private final PrintStream err;
    private final ComponentRepository repository;

    JmcaInfo(PrintStream out, PrintStream err, ComponentRepository repository) {
        this.out = out;
        this.err = err;
        this.repository = repository;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err,
                ComponentRepository.discover(Thread.currentThread().getContextClassLoader())));
    }

    /** Runs the command and returns its exit status: 0, 1 for a configuration error, 2 for bad usage. */
    static int run(String[] args, PrintStream out, PrintStream err, ComponentRepository repository) {
        CommandLine command = new CommandLine(new JmcaInfo(out, err, repository));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        command.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            if (e instanceof McaException) {
                err.println("jmca-info: error: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return command.execute(args);
    }

    @Override
    public Integer call() {
        int maxLevel = level != null ? level : all ? 9 : 1;
        if (maxLevel < 1 || maxLevel > 9) {
            err.println("jmca-info: --level=" + level + " is outside 1..9 (1-3 user, 4-6 tuner, 7-9 developer)");
            return 2;
        }
        repository.problems().forEach(p -> err.println("jmca-info: warning: " + p));
        try (McaFrameworks frameworks = McaFrameworks.open(repository, mcaOptions.sources().registry(),
                line -> err.println("jmca-info: " + line))) {
            frameworks.warnings().stream()
                    .filter(w -> !repository.problems().contains(w))
                    .forEach(w -> err.println("jmca-info: warning: " + w));
            List<Param<?>> shown = all || param != null ? selectParams(frameworks, maxLevel) : List.of();
            if (parsable) {
                printParsable(frameworks, shown);
                if (pvars || all) {
                    printParsableCounters();
                }
            } else {
                printReport(frameworks, shown, maxLevel);
                printSections();
            }
            if ((pvars || all) && !parsable) {
                printCounters();
            }
            if (collCommSize != null) {
                printCollTable(frameworks, collCommSize);
            }
            if (tables) {
                printTables();
            }
        }
        return 0;
    }

    /** What the modules above this one add ({@link InfoSection}): the wire-up. */
    private void printSections() {
        ServiceLoader.load(InfoSection.class, Thread.currentThread().getContextClassLoader())
                .forEach(section -> {
                    out.println();
                    section.lines().forEach(out::println);
                });
    }

    /** Every component's decision tables. */
    private void printTables() {
        boolean any = false;
        for (Framework framework : Framework.values()) {
            for (Component component : repository.components(framework)) {
                List<String> lines = component.tables();
                if (!lines.isEmpty()) {
                    out.println();
                    lines.forEach(out::println);
                    any = true;
                }
            }
        }
        if (!any) {
            out.println("No component decides by a table.");
        }
    }

    /** One {@code mca:FW:COMP:pvar:NAME:description:TEXT} line per counter. */
    private void printParsableCounters() {
        for (Framework framework : Framework.values()) {
            for (Component component : repository.components(framework)) {
                for (org.jmca.mca.Counter counter : component.counters()) {
                    out.println("mca:" + framework.id() + ":" + component.name() + ":pvar:" + counter.name()
                            + ":description:" + oneLine(counter.description()));
                }
            }
        }
    }

    /** Every component's counters, whether or not it would be selected. */
    private void printCounters() {
        out.println();
        out.println("Performance variables (read in a job with MPI.performanceVariables()):");
        boolean any = false;
        for (Framework framework : Framework.values()) {
            for (Component component : repository.components(framework)) {
                for (org.jmca.mca.Counter counter : component.counters()) {
                    out.printf("  %-36s [%s/%s] %s%n", counter.name(), framework.id(), component.name(),
                            counter.description());
                    any = true;
                }
            }
        }
        if (!any) {
            out.println("  (none)");
        }
    }

    /** The coll selection for a communicator of {@code size} ranks, as rank 0 of a job would make it. */
    private void printCollTable(McaFrameworks frameworks, int size) {
        if (size < 1) {
            throw new McaException("--coll-comm-size " + size + ": a communicator has at least 1 rank");
        }
        List<CollSelection.Candidate> candidates = frameworks.selection(Framework.COLL).statuses().stream()
                .filter(s -> s.state() == ComponentStatus.State.SELECTED)
                .map(s -> new CollSelection.Candidate((CollComponent) s.component(), s.priority()))
                .toList();
        CollSelection.Result result = CollSelection.select(candidates, new CollCommunicator() {
            @Override
            public int rank() {
                return 0;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public String name() {
                return "a communicator of " + size + " ranks";
            }

            @Override
            public PmlRequest isend(MemorySegment data, int dest, int tag) {
                throw new UnsupportedOperationException("jmca-info sends nothing");
            }

            @Override
            public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
                throw new UnsupportedOperationException("jmca-info receives nothing");
            }
        });
        out.println();
        out.println("Collectives on a communicator of " + size + " rank" + (size == 1 ? "" : "s") + ":");
        result.components().forEach(line -> out.println("  " + line));
        result.functions().forEach(line -> out.println("  " + line));
    }

    private List<Param<?>> selectParams(McaFrameworks frameworks, int maxLevel) {
        String wantedFramework = all ? "all" : param.get(0);
        String wantedComponent = all ? "all" : param.get(1);
        if (!wantedFramework.equals("all") && Framework.byId(wantedFramework).isEmpty()) {
            throw new McaException("--param " + wantedFramework + " " + wantedComponent + ": no framework named '"
                    + wantedFramework + "'; frameworks: all, " + String.join(", ", frameworkIds()));
        }
        if (!wantedFramework.equals("all") && !wantedComponent.equals("all") && !wantedComponent.equals(BASE)
                && repository.find(Framework.byId(wantedFramework).orElseThrow(), wantedComponent).isEmpty()) {
            Framework framework = Framework.byId(wantedFramework).orElseThrow();
            throw new McaException("--param " + wantedFramework + " " + wantedComponent + ": framework "
                    + wantedFramework + " has no component named '" + wantedComponent + "'; components: all, base"
                    + repository.components(framework).stream().map(c -> ", " + c.name()).reduce("", String::concat));
        }
        List<Param<?>> shown = new ArrayList<>();
        for (Param<?> p : frameworks.parameters().all()) {
            Owner owner = ownerOf(p);
            boolean frameworkMatches = wantedFramework.equals("all") || owner.framework().equals(wantedFramework);
            boolean componentMatches = wantedComponent.equals("all") || owner.component().equals(wantedComponent);
            if (frameworkMatches && componentMatches && p.spec().level() <= maxLevel) {
                shown.add(p);
            }
        }
        return shown;
    }

    /** The framework and component a parameter belongs to, from its name. */
    record Owner(String framework, String component) { }

    private Owner ownerOf(Param<?> p) {
        String name = p.name();
        for (Framework framework : Framework.values()) {
            String prefix = framework.id() + "_";
            if (name.equals(framework.id()) || name.startsWith(prefix + BASE + "_")) {
                return new Owner(framework.id(), BASE);
            }
            Optional<Component> owner = repository.components(framework).stream()
                    .filter(c -> name.startsWith(prefix + c.name() + "_"))
                    .max(Comparator.comparingInt(c -> c.name().length()));
            if (owner.isPresent()) {
                return new Owner(framework.id(), owner.get().name());
            }
        }
        return new Owner("mca", BASE);
    }

    private void printReport(McaFrameworks frameworks, List<Param<?>> shown, int maxLevel) {
        out.println("JMCA " + Version.jmca() + ", Java " + Runtime.version() + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        for (Framework framework : Framework.values()) {
            FrameworkSelection selection = frameworks.selection(framework);
            out.println();
            out.println("Framework " + framework.id() + " (" + framework.selection().label() + "): "
                    + framework.description());
            if (selection.statuses().isEmpty()) {
                out.println("  (no components found)");
            }
            int width = selection.statuses().stream().mapToInt(s -> s.qualifiedName().length()).max().orElse(0);
            for (ComponentStatus status : selection.statuses()) {
                out.printf("  %-" + width + "s  %-16s %s%n", status.qualifiedName(), status.component().version(),
                        status.describe());
            }
        }
        if (param != null || all) {
            out.println();
            out.println("Parameters of level " + maxLevel + " and below:");
            if (shown.isEmpty()) {
                out.println("  (none)");
            }
            for (Param<?> p : shown) {
                ParameterSpec<?> spec = p.spec();
                Owner owner = ownerOf(p);
                out.printf("  %s = \"%s\"  [%s/%s, source: %s, level %d, %s, %s]%n", p.name(), p.formatted(),
                        owner.framework(), owner.component(), p.source(), spec.level(), spec.type().name(),
                        scopeLabel(spec));
                out.println("      " + spec.help());
                if (!spec.type().enumerators().isEmpty()) {
                    out.println("      Values: " + spec.type().expected().replaceFirst("^one of ", ""));
                }
                if (!spec.synonyms().isEmpty()) {
                    out.println("      Deprecated synonyms: " + String.join(", ", spec.synonyms()));
                }
            }
        }
    }

    private void printParsable(McaFrameworks frameworks, List<Param<?>> shown) {
        for (Framework framework : Framework.values()) {
            String base = "mca:" + framework.id() + ":" + BASE + ":";
            out.println(base + "framework:selection:" + framework.selection().label());
            for (ComponentStatus status : frameworks.selection(framework).statuses()) {
                String prefix = "mca:" + framework.id() + ":" + status.component().name() + ":";
                out.println(prefix + "version:" + status.component().version());
                out.println(prefix + "status:" + status.state().name().toLowerCase(Locale.ROOT));
                out.println(prefix + "priority:" + status.priority());
                if (!status.reason().isEmpty()) {
                    out.println(prefix + "reason:" + oneLine(status.reason()));
                }
            }
        }
        for (Param<?> p : shown) {
            Owner owner = ownerOf(p);
            ParameterSpec<?> spec = p.spec();
            String prefix = "mca:" + owner.framework() + ":" + owner.component() + ":param:" + p.name() + ":";
            out.println(prefix + "value:" + oneLine(p.formatted()));
            out.println(prefix + "source:" + oneLine(p.source().toString()));
            out.println(prefix + "level:" + spec.level());
            out.println(prefix + "type:" + spec.type().name());
            out.println(prefix + "scope:" + scopeLabel(spec));
            out.println(prefix + "help:" + oneLine(spec.help()));
            spec.type().enumerators().forEach(e -> out.println(prefix + "enumerator:value:" + e.number() + ":" + e.name()));
            spec.synonyms().forEach(s -> out.println(prefix + "synonym:name:" + s + ":deprecated"));
        }
    }

    private static String scopeLabel(ParameterSpec<?> spec) {
        return spec.scope().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').replace('\r', ' ');
    }

    private static List<String> frameworkIds() {
        return Arrays.stream(Framework.values()).map(Framework::id).toList();
    }

    /** The version picocli prints for {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        static String jmca() {
            String version = JmcaInfo.class.getPackage().getImplementationVersion();
            return version == null ? "(development build)" : version;
        }

        @Override
        public String[] getVersion() {
            return new String[] {"jmca-info " + jmca() + " on Java " + Runtime.version()};
        }
    }
}
