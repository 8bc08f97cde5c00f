package org.jmca.osc;

import java.util.List;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;

/**
 * A request-based one-sided operation ({@code MPI_Rput}, {@code MPI_Rget}...): complete once the
 * messages it is made of are (locally complete: the origin buffer is free, or the data arrived).
 * An operation carried out directly (over the BTL's put or get, or on this rank's own window) is
 * complete when it is made.
 */
public final class OscRequest implements PmlRequest {
    static final OscRequest DONE = new OscRequest(List.of());

    private final PmlRequest parts;

    OscRequest(List<PmlRequest> parts) {
        this.parts = PmlRequest.allOf(parts);
    }

    @Override
    public boolean isComplete() {
        return parts.isComplete();
    }

    @Override
    public PmlStatus status() {
        return PmlStatus.EMPTY;
    }

    @Override
    public boolean cancel() {
        return false;
    }
}
