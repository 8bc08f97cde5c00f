/**
 * {@code coll/inter} (priority 40): the collectives of intercommunicators, between their two
 * groups, as Open MPI's component of that name serves them; the only component that serves
 * intercommunicators.
 */
package org.jmca.coll.inter;
