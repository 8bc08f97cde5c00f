/**
 * Every collective algorithm of Open MPI's tuned component, with its number and name, written as
 * schedules of rounds of point-to-point messages that serve the blocking and the non-blocking
 * calls alike; shared by the coll components.
 */
package org.jmca.coll.base;
