/**
 * {@code jmpirun}: starts the ranks (processes, bound or not, or thread ranks in one JVM with a
 * class loader each), on this host and on others through a launch agent, forwards their output,
 * and ends the job with the first failure named.
 */
package org.jmca.rte.launcher;
