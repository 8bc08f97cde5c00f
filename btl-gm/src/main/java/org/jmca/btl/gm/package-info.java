/**
 * {@code btl/gm}: a BTL on the Myrinet GM model ({@code org.jmca.common.gm}) and the emulated GM NIC
 * ({@code btl_gm_device emulated}): shared memory between the processes of a host, a TCP wire
 * between hosts, registration cost modelled. One GM message per fragment into provided buffers of
 * two size classes (GM's own flow control), RPUT by directed sends in pipelined blocks.
 */
package org.jmca.btl.gm;
