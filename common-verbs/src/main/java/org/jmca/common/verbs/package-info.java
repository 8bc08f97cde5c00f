/**
 * The unreliable-datagram side of an InfiniBand device, shared by {@code btl/verbs} (which opens
 * the device and publishes it) and {@code coll/mcast} (which sends its multicast over it when
 * {@code coll_mcast_carrier verbs} is chosen): UD ports and the multicast groups they join.
 */
package org.jmca.common.verbs;
