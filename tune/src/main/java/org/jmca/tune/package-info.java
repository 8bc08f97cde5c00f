/**
 * {@code jmca-tune}: measures every coll/tuned algorithm of the chosen collectives on this
 * machine, as a user's job runs them, and writes the rules table that makes them fastest here,
 * with the proof that it helps (its own verification against the fixed rules) and plots of why.
 */
package org.jmca.tune;
