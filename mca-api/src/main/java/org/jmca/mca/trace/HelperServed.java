package org.jmca.mca.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The asynchronous-progress helper woke for a ring and served it, or found the application inside. */
@Name("jmca.HelperServed")
@Label("Helper served a ring")
@Category({"JMCA", "Asynchronous progress"})
@StackTrace(false)
public final class HelperServed extends Event {
    @Description("System.nanoTime() when the helper saw the ring") public long wokeNanos;
    @Description("System.nanoTime() when it owned progress; 0 if the application kept it") public long ownedNanos;
    @Description("System.nanoTime() when it gave progress back") public long doneNanos;
    @Label("Woke from the kernel") @Description("false: it saw the ring while polling the bell")
    public boolean slept;
    @Label("Progress turns") public int turns;
}
