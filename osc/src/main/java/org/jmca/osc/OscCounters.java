package org.jmca.osc;

import java.util.List;
import org.jmca.mca.PerformanceVariable;

/**
 * What a process's windows did, for {@code MPI.performanceVariables()}: operations carried out
 * over a BTL's put or get, and those sent as active messages. Written by the thread that owns
 * progress, read by any.
 */
public final class OscCounters {
    volatile long directPuts;
    volatile long directGets;
    volatile long activeMessages;

    public List<PerformanceVariable> read() {
        return List.of(new PerformanceVariable("osc_direct_puts", "window puts carried out by a BTL's put",
                        () -> directPuts),
                new PerformanceVariable("osc_direct_gets", "window gets carried out by a BTL's get", () -> directGets),
                new PerformanceVariable("osc_active_messages",
                        "window operations sent as active messages (the accumulates always)", () -> activeMessages));
    }
}
