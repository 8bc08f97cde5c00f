/**
 * What JMCA asks of the operating system for its threads, shared by the runtime (a rank's thread
 * bound to its CPU) and the components (the helper thread of asynchronous progress): CPU lists as
 * taskset writes them, the CPUs this process may run on, and a thread's CPU, niceness and
 * scheduling class, set through {@code java.lang.foreign} on the calling thread only.
 */
package org.jmca.mca.os;
