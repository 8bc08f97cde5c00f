package org.jmca.mca.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A receiver read a rendezvous message from the sender's memory (RGET) and sent FIN. */
@Name("jmca.RendezvousRead")
@Label("Rendezvous read")
@Category({"JMCA", "Asynchronous progress"})
@StackTrace(false)
public final class RendezvousRead extends Event {
    @Label("Sender") public int peer;
    @Label("Bytes") public long bytes;
    @Label("On the helper thread") public boolean onHelper;
    @Description("System.nanoTime() before the read") public long startNanos;
    @Description("System.nanoTime() after the FIN was sent") public long endNanos;
}
