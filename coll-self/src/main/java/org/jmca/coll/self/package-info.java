/**
 * {@code coll/self} (priority 75): the collectives of a communicator of one process.
 */
package org.jmca.coll.self;
