/**
 * {@code coll/gm}: collectives written on a GM port of their own (the CollGM paper): eager messages
 * into pre-registered buffers with a request/acknowledge window, directed sends into the user's
 * registered buffer in pipelined blocks, broadcast trees that forward from the receive buffer,
 * and a replaceable HOCON selection map.
 */
package org.jmca.coll.gm;
