package org.jmca.mca;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * The components found in this process, by framework. Discovery goes through
 * {@link ServiceLoader}, so a component is a jar on the class path or a module on the module
 * path that provides {@link Component}; nothing in JMCA names it.
 *
 * <p>A provider that cannot be loaded, or that breaks the rules (wrong SPI, bad name), is left
 * out and reported in {@link #problems()}; two components with one name are an error, since
 * which one ran would depend on the class path order.
 */
public final class ComponentRepository {
    private static final int MAX_LOAD_FAILURES = 100;
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    private final Map<Framework, List<Component>> byFramework = new EnumMap<>(Framework.class);
    private final List<String> problems = new ArrayList<>();

    private ComponentRepository() {
        for (Framework framework : Framework.values()) {
            byFramework.put(framework, new ArrayList<>());
        }
    }

    /** Finds the components visible to a class loader (the class path, or the module path's layer). */
    public static ComponentRepository discover(ClassLoader loader) {
        return fromLoader(ServiceLoader.load(Component.class, loader));
    }

    /** Finds the components provided by the modules of a layer and its parents. */
    public static ComponentRepository discover(ModuleLayer layer) {
        return fromLoader(ServiceLoader.load(layer, Component.class));
    }

    /** A repository of the given components, for tests and embedding. */
    public static ComponentRepository of(Collection<? extends Component> components) {
        ComponentRepository repository = new ComponentRepository();
        components.forEach(repository::add);
        repository.sort();
        return repository;
    }

    private static ComponentRepository fromLoader(ServiceLoader<Component> loader) {
        ComponentRepository repository = new ComponentRepository();
        Iterator<Component> providers = loader.iterator();
        // A broken provider throws from hasNext/next and the iterator moves past it; the cap only
        // guards against an iterator that keeps failing on the same entry.
        for (int failures = 0; failures < MAX_LOAD_FAILURES; ) {
            try {
                if (!providers.hasNext()) {
                    break;
                }
                repository.add(providers.next());
            } catch (ServiceConfigurationError e) {
                failures++;
                repository.problems.add("a component could not be loaded: " + e.getMessage()
                        + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            }
        }
        repository.sort();
        return repository;
    }

    private void add(Component component) {
        String type = component.getClass().getName();
        Framework framework = component.framework();
        String name = component.name();
        if (framework == null || !framework.spi().isInstance(component)) {
            problems.add(type + " is left out: it says it belongs to framework " + framework
                    + " but does not implement that framework's SPI"
                    + (framework == null ? "" : " " + framework.spi().getName()));
            return;
        }
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add(type + " is left out: its name '" + name
                    + "' must be lower-case letters, digits and '_', starting with a letter");
            return;
        }
        Optional<Component> clash = find(framework, name);
        if (clash.isPresent()) {
            throw new McaException("two components are named " + framework.id() + "/" + name + ": "
                    + origin(clash.get()) + " and " + origin(component) + "; remove one from the class path");
        }
        byFramework.get(framework).add(component);
    }

    private void sort() {
        byFramework.values().forEach(list -> list.sort((a, b) -> a.name().compareTo(b.name())));
    }

    private static String origin(Component component) {
        var codeSource = component.getClass().getProtectionDomain().getCodeSource();
        return component.getClass().getName() + (codeSource == null ? "" : " in " + codeSource.getLocation());
    }

    /** The components of one framework, sorted by name. */
    public List<Component> components(Framework framework) {
        return List.copyOf(byFramework.get(framework));
    }

    public Optional<Component> find(Framework framework, String name) {
        return byFramework.get(framework).stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Providers that were left out, and why. */
    public List<String> problems() {
        return List.copyOf(problems);
    }
}
