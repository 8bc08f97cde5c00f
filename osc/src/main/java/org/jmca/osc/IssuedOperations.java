package org.jmca.osc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jmca.mca.pml.PmlRequest;

/**
 * This rank's operations as an origin, per target, as its synchronization counts them: the active
 * messages sent (cumulative, as the target counts what it carries out: a fence, complete, unlock or
 * flush carries this count and the target answers once it has carried out as many), those sent
 * since the last synchronization whose completion no reply has shown (puts, accumulates), and the
 * messages not locally complete yet. Shared by the window's calls, which add to it, and its
 * active- and passive-target synchronization, which wait on it.
 *
 * <p>Threads: the thread that owns progress.
 */
final class IssuedOperations {
    /** Per target: active-message operations sent, cumulative. */
    private final long[] issued;
    /** Per target: operations sent since the last flush whose completion there no reply has shown (puts, accumulates). */
    private final long[] unanswered;
    /** Per target: messages of this rank's that are not locally complete yet. */
    private final List<PmlRequest>[] outstanding;

    @SuppressWarnings("unchecked")
    IssuedOperations(int size) {
        this.issued = new long[size];
        this.unanswered = new long[size];
        this.outstanding = new List[size];
        for (int r = 0; r < size; r++) {
            outstanding[r] = new ArrayList<>();
        }
    }

    /** One operation sent {@code target} as {@code parts}; {@code answered} if a reply will show it done there. */
    void add(int target, List<PmlRequest> parts, boolean answered) {
        issued[target]++;
        if (!answered) {
            unanswered[target]++;
        }
        outstanding[target].addAll(parts);
    }

    /** The operations sent {@code target} so far: what a synchronization message carries. */
    long count(int target) {
        return issued[target];
    }

    /** True if some operation sent {@code target} since the last synchronization has not shown it is done there. */
    boolean anyUnanswered(int target) {
        return unanswered[target] != 0;
    }

    /** A synchronization with {@code target} is under way: it answers for every operation before it. */
    void answered(int target) {
        unanswered[target] = 0;
    }

    /** A synchronization with every target answered for every operation before it. */
    void allAnswered() {
        Arrays.fill(unanswered, 0);
    }

    boolean locallyComplete(int target) {
        outstanding[target].removeIf(PmlRequest::isComplete);
        return outstanding[target].isEmpty();
    }

    boolean allLocallyComplete() {
        for (int r = 0; r < outstanding.length; r++) {
            if (!locallyComplete(r)) {
                return false;
            }
        }
        return true;
    }
}
