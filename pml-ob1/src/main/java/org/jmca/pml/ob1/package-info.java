/**
 * {@code pml/ob1}: matching on (context, source, tag) with MPI's non-overtaking order, eager sends
 * up to the BTL's eager limit, and rendezvous above it (fragments, or RGET/RPUT where the BTL
 * can), striped over the BTLs that reach a peer.
 */
package org.jmca.pml.ob1;
