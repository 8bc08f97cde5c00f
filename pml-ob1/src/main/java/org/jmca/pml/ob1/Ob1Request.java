package org.jmca.pml.ob1;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jmca.mca.pml.PmlRequest;

/**
 * What ob1's sends and receives share: the completion flag. It is published with a release store
 * and read with an acquire load: a waiting thread that sees it set sees the status written before
 * it, and on x86 neither side pays for the full fence a volatile write costs.
 */
abstract class Ob1Request implements PmlRequest {
    private static final VarHandle COMPLETE;

    static {
        try {
            COMPLETE = MethodHandles.lookup().findVarHandle(Ob1Request.class, "complete", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through COMPLETE
    private boolean complete;

    /** Publishes completion; everything written before is visible to whoever sees it. */
    final void complete() {
        COMPLETE.setRelease(this, true);
    }

    @Override
    public final boolean isComplete() {
        return (boolean) COMPLETE.getAcquire(this);
    }
}
