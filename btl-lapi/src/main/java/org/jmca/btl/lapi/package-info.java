/**
 * {@code btl/lapi}: the IBM LAPI model ({@code org.jmca.common.lapi}) on an emulated switch (shared
 * memory between the tasks of a host, TCP between hosts), its dispatcher in polling, interrupt
 * or lockfree mode, and a BTL over it (active messages for fragments, put and get for RDMA).
 */
package org.jmca.btl.lapi;
