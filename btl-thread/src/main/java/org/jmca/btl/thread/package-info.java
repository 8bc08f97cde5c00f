/**
 * {@code btl/thread}: ranks that are threads of one JVM, through lock-free rings in native memory;
 * a message above the eager limit is read by the receiver straight from the sender's memory,
 * heap arrays included.
 */
package org.jmca.btl.thread;
