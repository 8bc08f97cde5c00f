/**
 * The launch API: {@link org.jmca.launch.MpiJob} starts a job of processes or thread ranks from
 * Java code and gives back each rank's status and output.
 */
package org.jmca.launch;
