/**
 * The point-to-point messaging framework: matching on (context, source, tag) and the eager,
 * rendezvous and RDMA protocols over the selected BTLs. Single-select.
 */
package org.jmca.mca.pml;
