package org.jmca.mca.progress;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jmca.mca.btl.BtlDoorbell;

/**
 * What asynchronous progress needs from the layers above the engine, given once the PML exists.
 *
 * @param doorbell         the bell peers ring when they announce a rendezvous; null when no
 *                         selected transport can wake this process
 * @param receivesPending  true while the PML has a receive posted that has not completed (read
 *                         by the thread that owns progress)
 */
public record AsyncSources(BtlDoorbell doorbell, BooleanSupplier receivesPending) {
    public AsyncSources {
        Objects.requireNonNull(receivesPending, "receivesPending");
    }
}
