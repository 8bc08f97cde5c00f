package org.jmca.mca.coll;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jmca.mca.McaException;

/**
 * Builds the function table of one communicator: every candidate component is queried; the
 * modules it accepts are enabled from the lowest priority to the highest, each taking over the
 * functions it provides and receiving the table below it as its fallback.
 *
 * <p>An intercommunicator is offered only to the components that {@linkplain
 * CollComponent#servesIntercommunicators() serve} one, and needs providers only of the
 * functions MPI defines on one ({@link CollFunction#betweenGroups()}).
 *
 * <p>A preference ("a,b,^c", the {@value #PREFERENCE_KEY} hint of the communicator) puts the
 * named components above all others, in the order given, and leaves out those marked with '^'.
 */
public final class CollSelection {

    /** The hint through which a communicator prefers or excludes components. */
    public static final String PREFERENCE_KEY = "ompi_comm_coll_preference";

    /** A selected coll component and the priority it was selected with. */
    public record Candidate(CollComponent component, int priority) {
    }

    /**
     * The outcome for one communicator.
     *
     * @param table      the provider of each function
     * @param components one line per candidate: what it serves or why it does not
     */
    public record Result(CollTable table, List<String> components) {

        /** One line per function: {@code allreduce: tuned (fixed rules)}. */
        public List<String> functions() {
            List<String> lines = new ArrayList<>();
            for (CollFunction function : CollFunction.values()) {
                table.provider(function).ifPresent(p -> {
                    String how = p.module().describe(function);
                    lines.add(function.id() + ": " + p.component() + (how.isEmpty() ? "" : " (" + how + ")"));
                });
            }
            return lines;
        }
    }

    private CollSelection() {
    }

    /**
     * Queries the candidates for {@code communicator} and enables their modules.
     *
     * @throws McaException if the preference names an unknown component or a function has no provider
     */
    public static Result select(List<Candidate> candidates, CollCommunicator communicator) {
        String preference = communicator.hint(PREFERENCE_KEY);
        List<Candidate> ordered = order(candidates, preference == null ? "" : preference.strip());
        List<String> report = new ArrayList<>();
        CollTable table = new CollTable();
        for (Candidate candidate : ordered) {
            String name = candidate.component().name();
            if (communicator.isInter() && !candidate.component().servesIntercommunicators()) {
                report.add("coll/" + name + ": declined: intracommunicators only");
                continue;
            }
            CollOffer offer = candidate.component().query(communicator);
            if (!offer.accepted()) {
                report.add("coll/" + name + ": declined: " + offer.reason());
                continue;
            }
            CollModule module = offer.module();
            module.enable(table.copy());
            for (CollFunction function : module.provides()) {
                table.put(function, new CollTable.Provider(name, module));
            }
            report.add("coll/" + name + " (priority " + candidate.priority() + "): provides "
                    + module.provides().stream().map(CollFunction::id).sorted().collect(Collectors.joining(",")));
        }
        Set<CollFunction> missing = EnumSet.allOf(CollFunction.class);
        missing.removeIf(f -> table.provider(f).isPresent() || communicator.isInter() && !f.betweenGroups());
        if (!missing.isEmpty()) {
            throw new McaException(communicator.name() + " has no coll component for "
                    + missing.stream().map(CollFunction::id).collect(Collectors.joining(", "))
                    + "; the coll components asked said: " + String.join("; ", report)
                    + (report.isEmpty() ? "none is selected (check the coll parameter)" : "")
                    + (communicator.isInter() ? " (an intercommunicator needs a component that serves one, as"
                    + " coll/inter does: is it in the coll parameter?)" : ""));
        }
        return new Result(table, report);
    }

    /** Candidates from the lowest to the highest priority, after the preference is applied. */
    private static List<Candidate> order(List<Candidate> candidates, String preference) {
        List<Candidate> ascending = new ArrayList<>(candidates);
        // lowest priority first, ties by name from z to a (a lambda, not the JDK's serializable
        // combinators, which the AOT cache does not keep)
        ascending.sort((a, b) -> a.priority() != b.priority() ? Integer.compare(a.priority(), b.priority())
                : b.component().name().compareTo(a.component().name()));
        if (preference.isEmpty()) {
            return ascending;
        }
        Set<String> known = ascending.stream().map(c -> c.component().name()).collect(Collectors.toSet());
        Set<String> preferred = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        for (String token : preference.split(",")) {
            String item = token.strip();
            boolean exclude = item.startsWith("^");
            String name = exclude ? item.substring(1).strip() : item;
            if (!known.contains(name)) {
                throw new McaException("the " + PREFERENCE_KEY + " \"" + preference + "\" names coll/" + name
                        + ", which is not among the selected coll components: " + String.join(", ", known));
            }
            (exclude ? excluded : preferred).add(name);
        }
        List<Candidate> result = new ArrayList<>();
        ascending.stream().filter(c -> !preferred.contains(c.component().name())
                && !excluded.contains(c.component().name())).forEach(result::add);
        List<String> top = new ArrayList<>(preferred);
        for (int i = top.size() - 1; i >= 0; i--) {
            String name = top.get(i);
            ascending.stream().filter(c -> c.component().name().equals(name)).forEach(result::add);
        }
        return result;
    }
}
