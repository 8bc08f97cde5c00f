/**
 * What the BTLs share (Open MPI's btl/base and opal/mca/common in one): the common parameters every
 * BTL registers ({@link org.jmca.btl.base.BtlBaseParameters}), the lock-free shared-memory ring
 * ({@link org.jmca.btl.base.SharedRing}) and the file of rings that sm, lapi, verbs' software
 * device and GM's emulated NIC map ({@link org.jmca.btl.base.RingFile}), cross-memory copies,
 * the futex doorbell, registration caches, the socket wire of the emulated devices and the choice
 * of network addresses.
 */
package org.jmca.btl.base;
