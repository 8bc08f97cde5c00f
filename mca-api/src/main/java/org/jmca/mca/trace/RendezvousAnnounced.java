package org.jmca.mca.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A sender announced a rendezvous (its first fragment is in the receiver's ring). */
@Name("jmca.RendezvousAnnounced")
@Label("Rendezvous announced")
@Category({"JMCA", "Asynchronous progress"})
@StackTrace(false)
public final class RendezvousAnnounced extends Event {
    @Label("Receiver") public int peer;
    @Label("Bytes") public long bytes;
    @Label("Rang the receiver's doorbell") public boolean rang;
    @Description("System.nanoTime() once the announcement was in the receiver's ring, before the ring") public long nanos;
}
