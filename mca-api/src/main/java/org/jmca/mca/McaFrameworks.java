package org.jmca.mca;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jmca.mca.ComponentStatus.State;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.ParameterSpec;

/**
 * Opens every framework of a process: registers the parameters of the frameworks and their
 * components, reads each framework's include/exclude list, probes the components and selects.
 *
 * <p>Each framework registers two parameters of its own: {@code <framework>}, the component list
 * ({@link ComponentFilter}), and {@code <framework>_base_verbose}. Each component gets
 * {@code <framework>_<component>_priority}, defaulting to {@link Component#defaultPriority()}.
 *
 * <p>Selection per framework: single-select keeps the available component with the highest
 * priority (ties go to the first name in alphabetical order, so every rank decides alike);
 * multi-select and per-communicator frameworks keep every available component, highest priority
 * first. A negative priority keeps a component out. Every component that is not selected has
 * its reason in {@link FrameworkSelection#statuses()}.
 */
public final class McaFrameworks implements AutoCloseable {
    private final ParameterRegistry registry;
    private final Map<Framework, FrameworkSelection> selections = new EnumMap<>(Framework.class);
    private final List<String> warnings = new ArrayList<>();
    private final List<Component> opened = new ArrayList<>();

    private McaFrameworks(ParameterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Opens every framework.
     *
     * @param verbose receives one line per component and framework whose {@code <fw>_base_verbose} is above 0
     * @throws McaException       if an include/exclude list is malformed or names a missing component, or a
     *                            component finds its configuration wrong (the user must fix it, so it is
     *                            not merely "not available")
     * @throws ParameterException if a source sets a parameter to a value of the wrong type
     */
    public static McaFrameworks open(ComponentRepository repository, ParameterRegistry registry, Consumer<String> verbose) {
        McaFrameworks frameworks = new McaFrameworks(registry);
        frameworks.warnings.addAll(repository.problems());
        Map<Framework, Param<String>> lists = new EnumMap<>(Framework.class);
        Map<Framework, Param<Integer>> verbosity = new EnumMap<>(Framework.class);
        Map<Component, Param<Integer>> priorities = new HashMap<>();
        Map<Component, String> registrationFailures = new HashMap<>();
        Param<Integer> warmup = registry.register(WARMUP_MS);
        registry.register(WARMUP_VERBOSE);
        frameworks.rshAgent = registry.register(RSH_AGENT);
        if (warmup.get() < 0) {
            throw new McaException(WARMUP_MS_NAME + "=" + warmup.get() + " (" + warmup.source()
                    + ") must be 0 (no warm-up) or a number of milliseconds");
        }
        for (Framework framework : Framework.values()) {
            lists.put(framework, registry.register(selectionListSpec(framework)));
            verbosity.put(framework, registry.register(verboseSpec(framework)));
            for (Component component : repository.components(framework)) {
                String prefix = framework.id() + "_" + component.name();
                priorities.put(component, registry.register(prioritySpec(prefix, component)));
                try {
                    component.registerParameters(registry.prefixed(prefix));
                } catch (McaException e) {
                    throw e;
                } catch (RuntimeException e) {
                    registrationFailures.put(component, "registering its parameters threw " + e);
                }
            }
        }
        frameworks.warnings.addAll(registry.warnings());
        frameworks.warnings.addAll(registry.unknownNameWarnings());

        for (Framework framework : Framework.values()) {
            List<Component> components = repository.components(framework);
            Param<String> list = lists.get(framework);
            ComponentFilter filter = ComponentFilter.parse(framework, list.get(), list.source(),
                    components.stream().map(Component::name).toList());
            registry.freeze(name -> name.equals(framework.id()) || name.startsWith(framework.id() + "_"));
            List<ComponentStatus> statuses = new ArrayList<>();
            for (Component component : components) {
                statuses.add(frameworks.probe(component, filter, priorities.get(component),
                        registrationFailures.get(component)));
            }
            FrameworkSelection selection = new FrameworkSelection(framework, filter, select(framework, statuses));
            // a component named in an include list that cannot run here: say so before the job fails for want of it
            frameworks.warnings.addAll(selection.declinedRequests());
            frameworks.selections.put(framework, selection);
            if (verbosity.get(framework).get() > 0) {
                selection.statuses().forEach(s -> verbose.accept(s.qualifiedName() + ": " + s.describe()));
            }
        }
        return frameworks;
    }

    private ComponentStatus probe(Component component, ComponentFilter filter, Param<Integer> priority,
                                  String registrationFailure) {
        int p = priority.get();
        if (registrationFailure != null) {
            return new ComponentStatus(component, State.FAILED, p, registrationFailure);
        }
        if (!filter.admits(component.name())) {
            return new ComponentStatus(component, State.EXCLUDED, p, filter.whyNotAdmitted());
        }
        Availability availability;
        try {
            opened.add(component);
            availability = component.probe();
        } catch (McaException e) {
            throw e;
        } catch (RuntimeException e) {
            return new ComponentStatus(component, State.FAILED, p, "its probe threw " + e);
        }
        if (availability instanceof Availability.Unavailable(String reason)) {
            return new ComponentStatus(component, State.UNAVAILABLE, p, reason);
        }
        if (p < 0) {
            return new ComponentStatus(component, State.NOT_SELECTED, p,
                    "its priority " + p + " (" + priority.source() + ") is negative");
        }
        return new ComponentStatus(component, State.SELECTED, p, "");
    }

    /**
     * Highest priority first, ties by name. (Written out: the JDK's comparator combinators are
     * serializable lambdas, which the AOT cache does not keep, so each would be made at every start.)
     */
    private static int byPriorityThenName(ComponentStatus a, ComponentStatus b) {
        int byPriority = Integer.compare(b.priority(), a.priority());
        return byPriority != 0 ? byPriority : a.component().name().compareTo(b.component().name());
    }

    /** Applies the framework's selection rule to the candidates; returns statuses, selected first. */
    private static List<ComponentStatus> select(Framework framework, List<ComponentStatus> statuses) {
        List<ComponentStatus> candidates = new ArrayList<>(statuses.stream()
                .filter(s -> s.state() == State.SELECTED)
                .sorted(McaFrameworks::byPriorityThenName)
                .toList());
        if (framework.selection() == Framework.Selection.SINGLE && candidates.size() > 1) {
            ComponentStatus winner = candidates.getFirst();
            for (int i = 1; i < candidates.size(); i++) {
                ComponentStatus loser = candidates.get(i);
                String why = loser.priority() == winner.priority()
                        ? "its priority " + loser.priority() + " ties with " + winner.qualifiedName()
                                + ", which wins by name"
                        : "its priority " + loser.priority() + " is below " + winner.qualifiedName() + "'s "
                                + winner.priority();
                candidates.set(i, new ComponentStatus(loser.component(), State.NOT_SELECTED, loser.priority(), why));
            }
        }
        List<ComponentStatus> ordered = new ArrayList<>(candidates);
        statuses.stream().filter(s -> s.state() != State.SELECTED).forEach(ordered::add);
        return ordered;
    }

    private static ParameterSpec<String> selectionListSpec(Framework framework) {
        String id = framework.id();
        return ParameterSpec.builder(id, ParamType.STRING, "")
                .help("Which " + id + " components to use: a,b uses only a and b; ^a,b uses all but a and b;"
                        + " empty uses every available one. '^' may stand only at the start.")
                .level(2)
                .build();
    }

    /** Name of the MPI layer's warm-up parameter, read by MPI.Init (registered here so every tool knows it). */
    public static final String WARMUP_MS_NAME = "mpi_warmup_ms";

    /** The launch agent that reaches other hosts, as Open MPI's parameter of the same name. */
    public static final String RSH_AGENT_NAME = "plm_rsh_agent";

    private static final ParameterSpec<String> RSH_AGENT = ParameterSpec.builder(RSH_AGENT_NAME, ParamType.STRING, "ssh")
            .help("The command jmpirun runs a host's daemon through: AGENT HOST COMMAND... (ssh; 'ip netns exec' for"
                    + " network namespaces as hosts).")
            .level(3)
            .build();
    private Param<String> rshAgent;

    /** The launch agent's words ({@code plm_rsh_agent}). */
    public java.util.List<String> rshAgent() {
        return java.util.List.of(rshAgent.get().strip().split("\\s+"));
    }

    private static final ParameterSpec<Integer> WARMUP_MS = ParameterSpec.builder(WARMUP_MS_NAME, ParamType.INT, 2000)
            .help("MPI.Init runs the common calls (a ping-pong of 1 B to 8 KiB with a neighbour, allreduce of one double, float,"
                    + " int and long, an 8-byte bcast, barrier) on MPI_COMM_WORLD in batches, each rank sleeping after each"
                    + " batch while its JIT compilers work, until two batches in a row leave every rank's compilers idle,"
                    + " for at most this many milliseconds; so that the application's first calls run compiled code:"
                    + " without it the first thousands of calls were 15-380x slower than Open MPI's. 0 turns it off (a"
                    + " faster start for jobs that make few calls).")
            .level(4)
            .build();

    /** Name of the parameter that makes MPI.Init say what its warm-up did. */
    public static final String WARMUP_VERBOSE_NAME = "mpi_warmup_verbose";

    private static final ParameterSpec<Boolean> WARMUP_VERBOSE = ParameterSpec.builder(WARMUP_VERBOSE_NAME,
                    ParamType.BOOL, false)
            .help("Each rank prints, on standard error, how long MPI.Init's warm-up took, in how many batches, how much"
                    + " CPU its JVM's JIT compilers used meanwhile, and why it ended.")
            .level(4)
            .build();

    private static ParameterSpec<Integer> verboseSpec(Framework framework) {
        return ParameterSpec.builder(framework.id() + "_base_verbose", ParamType.INT, 0)
                .help("Verbosity of the " + framework.id() + " framework: above 0 prints which component"
                        + " was selected and why the others were not.")
                .level(8)
                .build();
    }

    private static ParameterSpec<Integer> prioritySpec(String prefix, Component component) {
        return ParameterSpec.builder(prefix + "_priority", ParamType.INT, component.defaultPriority())
                .help("Priority of the " + component.framework().id() + "/" + component.name()
                        + " component; higher wins, negative keeps it out.")
                .level(6)
                .build();
    }

    public FrameworkSelection selection(Framework framework) {
        return selections.get(framework);
    }

    public ParameterRegistry parameters() {
        return registry;
    }

    /** Unknown parameter names, deprecated synonyms and providers left out; one line each. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Closes every component that was probed. */
    @Override
    public void close() {
        for (Component component : opened.reversed()) {
            try {
                component.close();
            } catch (RuntimeException e) {
                warnings.add(component.framework().id() + "/" + component.name() + ": close threw " + e);
            }
        }
        opened.clear();
    }
}
