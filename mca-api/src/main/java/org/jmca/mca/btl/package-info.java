/**
 * The byte transfer layer framework: the transports.
 *
 * <p>Multi-select. Every available {@link org.jmca.mca.btl.BtlComponent} makes modules; per
 * peer the point-to-point layer keeps the reachable modules of the highest exclusivity
 * ({@link org.jmca.mca.btl.BtlProperties}): a peer on the same host reached by both sm and tcp
 * uses sm only.
 */
package org.jmca.mca.btl;
