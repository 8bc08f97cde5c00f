/**
 * The Myrinet GM model in Java shape, shared by {@code btl/gm} (which provides ports) and
 * {@code coll/gm} (which writes collectives straight on a port): ports named by node and port id,
 * send and receive tokens, size classes of {@code 2^s - 8} bytes, two priorities, receive
 * buffers provided with tags and filled only by a message of their size and priority, one event
 * queue per port, send callbacks that give tokens back, registered memory for every transfer,
 * and directed sends (remote writes into registered memory).
 */
package org.jmca.common.gm;
