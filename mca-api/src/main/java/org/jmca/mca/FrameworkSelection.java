package org.jmca.mca;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The outcome of opening one framework: every component's status, the selected ones first in
 * descending priority.
 */
public record FrameworkSelection(Framework framework, ComponentFilter filter, List<ComponentStatus> statuses) {

    public FrameworkSelection {
        statuses = List.copyOf(statuses);
    }

    /** The selected components, highest priority first. */
    public List<Component> selected() {
        return statuses.stream()
                .filter(s -> s.state() == ComponentStatus.State.SELECTED)
                .map(ComponentStatus::component)
                .toList();
    }

    /** The selected component of a single-select framework, if any. */
    public Optional<Component> single() {
        return selected().stream().findFirst();
    }

    /**
     * The selected component of a single-select framework.
     *
     * @throws McaException listing why each component was not selected
     */
    public Component requireSingle() {
        return single().orElseThrow(() -> new McaException("no " + framework.id() + " component can be used"
                + (statuses.isEmpty() ? ": none was found on the class path"
                        : ": " + statuses.stream().map(s -> s.qualifiedName() + " " + s.describe())
                                .collect(Collectors.joining("; ")))));
    }

    /**
     * The components the user named in an include list ({@code --mca btl self,verbs}) that
     * cannot run here, each with where it was asked for and why it declined.
     */
    public List<String> declinedRequests() {
        if (filter == null || filter.exclude()) {
            return List.of();
        }
        return statuses.stream()
                .filter(s -> (s.state() == ComponentStatus.State.UNAVAILABLE
                        || s.state() == ComponentStatus.State.FAILED) && filter.names().contains(s.component().name()))
                .map(s -> s.qualifiedName() + " was asked for (" + framework.id() + "=" + filter.text() + ", "
                        + filter.source() + ") but cannot run here: " + s.reason())
                .toList();
    }

    public Optional<ComponentStatus> status(String componentName) {
        return statuses.stream().filter(s -> s.component().name().equals(componentName)).findFirst();
    }
}
