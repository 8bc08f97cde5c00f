/**
 * One-sided communication beneath {@code mpi.Win}: windows, their epochs (fence, post/start/
 * complete/wait, locks), put, get, accumulates and request-based operations.
 *
 * <p>Each target is reached the way its BTL allows, chosen per peer when the window is made: a
 * BTL that can put and get into the target's memory ({@code WindowPeer}) moves the
 * data directly; any other reaches the target with active messages on the window's own
 * communicator contexts, which the target's progress applies ({@code TargetSide}).
 *
 * <p><b>Why this is a library and not an MCA framework.</b> Open MPI's osc framework chooses
 * between whole implementations (pt2pt, rdma, ucx, sm) per window. JMCA has one implementation,
 * and the choice Open MPI makes per window is made here per target, inside it, from what each
 * BTL offers. A framework with a single component would add a selection with nothing to
 * select. The day a second implementation of windows exists, this becomes {@code osc} with an
 * SPI in mca-api and this package its first component.
 */
package org.jmca.osc;
