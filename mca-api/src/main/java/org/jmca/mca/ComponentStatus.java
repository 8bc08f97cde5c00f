package org.jmca.mca;

/**
 * What became of one component when its framework opened, and why.
 *
 * @param component the component
 * @param state     selected, or the reason class for not being selected
 * @param priority  the priority it competed with (from its parameter)
 * @param reason    words for the user; empty when selected
 */
public record ComponentStatus(Component component, State state, int priority, String reason) {

    /** The outcome of selection for one component. */
    public enum State {
        /** In use. */
        SELECTED,
        /** Could run, but another component won (single-select) or its priority is negative. */
        NOT_SELECTED,
        /** Kept out by the framework's include/exclude list. */
        EXCLUDED,
        /** Its probe said it cannot run here. */
        UNAVAILABLE,
        /** It threw while registering or probing. */
        FAILED
    }

    /** "selected (priority 20)" or "not available: no RDMA device found". */
    public String describe() {
        return switch (state) {
            case SELECTED -> "selected (priority " + priority + ")";
            case NOT_SELECTED -> "available, not selected: " + reason;
            case EXCLUDED -> "not used: " + reason;
            case UNAVAILABLE -> "not available: " + reason;
            case FAILED -> "failed: " + reason;
        };
    }

    /** The component as users name it: {@code btl/tcp}. */
    public String qualifiedName() {
        return component.framework().id() + "/" + component.name();
    }
}
