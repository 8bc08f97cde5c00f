/**
 * {@code coll/mcast}: broadcast over multicast made reliable (the InfiniBand hardware multicast
 * paper): a sliding window at the root, acknowledgements or NACKs, co-roots, SMP-aware leaders,
 * over UDP or the verbs device's UD multicast; allreduce and alltoall built on it.
 */
package org.jmca.coll.mcast;
