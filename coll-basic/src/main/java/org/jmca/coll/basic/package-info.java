/**
 * {@code coll/basic} (priority 10): linear and logarithmic algorithms, which every communicator
 * can fall back on.
 */
package org.jmca.coll.basic;
